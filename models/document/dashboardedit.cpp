// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/dashboardedit.h"

#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"

#include <QSet>
#include <algorithm>
#include <numeric>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

qsizetype indexOf(const Dashboard &dashboard, const QString &id)
{
    for (qsizetype i = 0; i < dashboard.panels.size(); ++i) {
        if (dashboard.panels[i].id == id)
            return i;
    }
    return -1;
}

PanelLayout clamped(PanelLayout layout)
{
    layout.w = std::clamp(layout.w, 1, DashboardGridColumns);
    layout.x = std::clamp(layout.x, 0, DashboardGridColumns - layout.w);
    // Within what the loader accepts, so that an edited dashboard always loads back.
    layout.h = std::clamp(layout.h, 1, DashboardLimits::MaximumPanelHeight);
    layout.y = std::clamp(layout.y, 0, DashboardLimits::MaximumPanelRow - layout.h);
    return layout;
}

// A panel reaching into a section from above would draw under the section's bar: the
// section, and everything from its first row down, moves below the panel instead.
void keepSectionsWhole(Dashboard &dashboard)
{
    for (qsizetype i = 0; i < dashboard.sections.size(); ++i) {
        const int start = dashboard.sections.at(i).y;
        int bottom = start;
        for (const DashboardPanel &panel : std::as_const(dashboard.panels)) {
            const PanelLayout &l = panel.layout;
            if (l.y < start && l.y + l.h > start)
                bottom = std::max(bottom, l.y + l.h);
        }
        if (bottom == start)
            continue;
        const int delta = bottom - start;
        int lowest = 0;
        for (const DashboardPanel &panel : std::as_const(dashboard.panels)) {
            if (panel.layout.y >= start)
                lowest = std::max(lowest, panel.layout.y + panel.layout.h + delta);
        }
        if (lowest > DashboardLimits::MaximumPanelRow
            || dashboard.sections.constLast().y + delta >= DashboardLimits::MaximumPanelRow) {
            // No room below at the grid's end: the bar goes instead, and its panels join
            // the section above, so the dashboard still loads.
            dashboard.sections.removeAt(i--);
            continue;
        }
        for (DashboardPanel &panel : dashboard.panels) {
            if (panel.layout.y >= start)
                panel.layout.y += delta;
        }
        for (qsizetype j = i; j < dashboard.sections.size(); ++j)
            dashboard.sections[j].y += delta;
    }
}

// Keeps the panel at `fixed` where it is and moves every other panel down just as far
// as needed: panels are settled top to bottom, each below any settled panel it
// overlaps. A panel overlapping nothing does not move.
void pushDownFrom(Dashboard &dashboard, qsizetype fixed)
{
    // A section the panel now reaches into moves below it first, with its panels, so
    // that they keep their places in it; then overlaps are settled, and a panel pushed
    // into a section moves that one down in turn.
    keepSectionsWhole(dashboard);
    QList<qsizetype> order(dashboard.panels.size());
    std::iota(order.begin(), order.end(), qsizetype(0));
    order.removeAt(fixed);
    std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
        const PanelLayout &la = dashboard.panels[a].layout;
        const PanelLayout &lb = dashboard.panels[b].layout;
        return std::pair(la.y, la.x) < std::pair(lb.y, lb.x);
    });
    QList<qsizetype> settled { fixed };
    for (qsizetype i : order) {
        PanelLayout &layout = dashboard.panels[i].layout;
        for (bool moved = true; moved;) {
            moved = false;
            for (qsizetype s : settled) {
                const PanelLayout &other = dashboard.panels[s].layout;
                if (panelsOverlap(layout, other)) {
                    layout.y = other.y + other.h;
                    moved = true;
                }
            }
        }
        settled.append(i);
    }
    keepSectionsWhole(dashboard);
}

QString slug(const QString &title)
{
    QString out;
    for (const auto lower = title.toLower(); const QChar c : lower) {
        if (c.isLetterOrNumber())
            out += c;
        else if (!out.isEmpty() && !out.endsWith(u'-'))
            out += u'-';
    }
    // Room for a "-2" ... suffix within the loader's bound on ids.
    out.truncate(DashboardLimits::MaximumIdLength - 8);
    while (out.endsWith(u'-'))
        out.chop(1);
    return out.isEmpty() ? u"panel"_s : out;
}

bool idUsed(const Dashboard &dashboard, const QString &id, qsizetype except = -1)
{
    const qsizetype at = indexOf(dashboard, id);
    return at >= 0 && at != except;
}

} // namespace

void renameSource(Dashboard &dashboard, const QString &from, const QString &to)
{
    for (DashboardPanel &panel : dashboard.panels) {
        for (SeriesSelector &selector : panel.series) {
            if (selector.source == from)
                selector.source = to;
        }
    }
    for (DashboardDerived &derived : dashboard.derived) {
        if (derived.source == from)
            derived.source = to;
    }
    for (AlertRule &rule : dashboard.alerts) {
        if (rule.selector.source == from)
            rule.selector.source = to;
    }
}

QString dashboardProblem(const Dashboard &dashboard)
{
    const DashboardLoadResult loaded = parseDashboard(dashboardToJson(dashboard), QString());
    // Field and reason only: the text is not from a file.
    if (loaded.ok())
        return {};
    return loaded.error.field.isEmpty() ? loaded.error.reason
                                        : loaded.error.field + u": "_s + loaded.error.reason;
}

bool panelsOverlap(const PanelLayout &a, const PanelLayout &b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

QString uniquePanelId(const Dashboard &dashboard, const QString &title)
{
    const QString base = slug(title);
    QString id = base;
    for (int n = 2; idUsed(dashboard, id); ++n)
        id = base + u'-' + QString::number(n);
    return id;
}

QString addPanel(Dashboard &dashboard, DashboardPanel panel)
{
    if (panel.id.isEmpty() || idUsed(dashboard, panel.id))
        panel.id = uniquePanelId(dashboard, panel.title);
    int bottom = 0;
    for (const DashboardPanel &other : std::as_const(dashboard.panels))
        bottom = std::max(bottom, other.layout.y + other.layout.h);
    panel.layout = clamped({ 0, bottom, panel.layout.w, panel.layout.h });
    dashboard.panels.append(panel);
    keepSectionsWhole(dashboard);
    return panel.id;
}

bool removePanel(Dashboard &dashboard, const QString &id)
{
    const qsizetype at = indexOf(dashboard, id);
    if (at < 0)
        return false;
    dashboard.panels.removeAt(at);
    return true;
}

bool movePanel(Dashboard &dashboard, const QString &id, int x, int y)
{
    const qsizetype at = indexOf(dashboard, id);
    if (at < 0)
        return false;
    PanelLayout &layout = dashboard.panels[at].layout;
    layout = clamped({ x, y, layout.w, layout.h });
    pushDownFrom(dashboard, at);
    return true;
}

bool resizePanel(Dashboard &dashboard, const QString &id, int w, int h)
{
    const qsizetype at = indexOf(dashboard, id);
    if (at < 0)
        return false;
    PanelLayout &layout = dashboard.panels[at].layout;
    layout.x = std::clamp(layout.x, 0, DashboardGridColumns - 1);
    layout.w = std::clamp(w, 1, DashboardGridColumns - layout.x);
    layout.h = std::clamp(h, 1, DashboardLimits::MaximumPanelHeight);
    layout.y = std::clamp(layout.y, 0, DashboardLimits::MaximumPanelRow - layout.h);
    pushDownFrom(dashboard, at);
    return true;
}

bool replacePanel(Dashboard &dashboard, const QString &id, DashboardPanel panel)
{
    const qsizetype at = indexOf(dashboard, id);
    if (at < 0)
        return false;
    if (panel.id.isEmpty() || idUsed(dashboard, panel.id, at))
        panel.id = id;
    panel.layout = clamped(panel.layout);
    dashboard.panels[at] = panel;
    pushDownFrom(dashboard, at);
    return true;
}

bool movePanelInList(Dashboard &dashboard, const QString &id, int delta)
{
    const qsizetype at = indexOf(dashboard, id);
    const qsizetype to = at + delta;
    if (at < 0 || (delta != -1 && delta != 1) || to < 0 || to >= dashboard.panels.size())
        return false;
    dashboard.panels.swapItemsAt(at, to);
    return true;
}

} // namespace Headroom
