// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/dashboardrepeat.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

bool sharesRows(const Dashboard &dashboard, const DashboardPanel &panel)
{
    const PanelLayout &l = panel.layout;
    return std::any_of(dashboard.panels.cbegin(), dashboard.panels.cend(),
                       [&](const DashboardPanel &other) {
                           return other.id != panel.id && other.layout.y < l.y + l.h
                               && other.layout.y + other.layout.h > l.y;
                       });
}

// Moves everything starting at or below row `from` down by `rows`.
void shiftDown(Dashboard *dashboard, int from, int rows)
{
    for (DashboardPanel &panel : dashboard->panels) {
        if (panel.layout.y >= from)
            panel.layout.y += rows;
    }
    for (DashboardSection &section : dashboard->sections) {
        if (section.y >= from)
            section.y += rows;
    }
}

bool namesVariable(const QString &title, const QString &name)
{
    return title.contains(u"${"_s + name + u'}') || title.contains(u'$' + name);
}

QString withValue(QString title, const QString &name, const QString &value)
{
    title.replace(u"${"_s + name + u'}', value);
    title.replace(u'$' + name, value);
    return title;
}

// The copy's title: the variable replaced, or the value appended when it names none.
QString copyTitle(const QString &title, const QString &name, const QString &value)
{
    if (!namesVariable(title, name))
        return title.isEmpty() ? value : title + u" — "_s + value;
    return withValue(title, name, value);
}

// Repeats the section at `index` of out (top to bottom: earlier ones are done) with
// its band of panels; returns how many sections it became.
qsizetype repeatSection(Dashboard *out, qsizetype index, const QStringList &sectionValues)
{
    const DashboardSection section = out->sections.at(index);
    const int top = section.y;
    int bottom = top + 1;
    if (index + 1 < out->sections.size()) {
        bottom = out->sections.at(index + 1).y;
    } else {
        for (const DashboardPanel &panel : std::as_const(out->panels)) {
            if (panel.layout.y >= top)
                bottom = std::max(bottom, panel.layout.y + panel.layout.h);
        }
    }
    const int height = bottom - top;
    QList<DashboardPanel> band;
    qsizetype firstBand = -1;
    for (qsizetype i = 0; i < out->panels.size();) {
        const int y = out->panels.at(i).layout.y;
        if (y >= top && y < bottom) {
            if (firstBand < 0)
                firstBand = i;
            band.append(out->panels.takeAt(i));
        } else {
            ++i;
        }
    }
    shiftDown(out, bottom, int(sectionValues.size() - 1) * height);
    QList<DashboardSection> sections;
    QList<DashboardPanel> panels;
    for (qsizetype v = 0; v < sectionValues.size(); ++v) {
        const QString &value = sectionValues.at(v);
        const int offset = int(v) * height;
        DashboardSection copy = section;
        copy.y = top + offset;
        copy.title = copyTitle(section.title, section.repeat, value);
        copy.repeat.clear();
        sections.append(copy);
        for (const DashboardPanel &panel : std::as_const(band)) {
            DashboardPanel p = panel;
            p.id = panel.id + u'/' + value;
            p.title = withValue(panel.title, section.repeat, value);
            p.repeatOf = panel.repeatOf.isEmpty() ? panel.id : panel.repeatOf;
            p.variables.insert(section.repeat, value);
            p.layout.y += offset;
            panels.append(p);
        }
    }
    out->sections.removeAt(index);
    for (qsizetype i = 0; i < sections.size(); ++i)
        out->sections.insert(index + i, sections.at(i));
    const qsizetype at = firstBand < 0 ? out->panels.size() : firstBand;
    for (qsizetype i = 0; i < panels.size(); ++i)
        out->panels.insert(at + i, panels.at(i));
    return sections.size();
}

} // namespace

bool hasRepeats(const Dashboard &dashboard)
{
    return std::any_of(dashboard.panels.cbegin(), dashboard.panels.cend(),
                       [](const DashboardPanel &panel) { return !panel.repeat.isEmpty(); })
        || std::any_of(dashboard.sections.cbegin(), dashboard.sections.cend(),
                       [](const DashboardSection &section) { return !section.repeat.isEmpty(); });
}

Dashboard expandRepeats(const Dashboard &dashboard, const QMap<QString, QStringList> &values)
{
    Dashboard out = dashboard;
    for (qsizetype i = 0; i < out.sections.size(); ++i)
        out.sections[i].documentIndex = int(i);
    // Sections first (sections are ordered by y), then the panels, in them too.
    for (qsizetype i = 0; i < out.sections.size();) {
        const DashboardSection &section = out.sections.at(i);
        const QStringList sectionValues = values.value(section.repeat).mid(0, MaximumRepeats);
        if (section.repeat.isEmpty() || sectionValues.isEmpty())
            ++i;
        else
            i += repeatSection(&out, i, sectionValues);
    }
    // Top to bottom, so a shift never moves a panel not yet expanded past one that is.
    QList<std::pair<int, QString>> order; // (row, id)
    for (const DashboardPanel &panel : std::as_const(out.panels)) {
        if (!panel.repeat.isEmpty() && !values.value(panel.repeat).isEmpty())
            order.append({ panel.layout.y, panel.id });
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[row, id] : std::as_const(order)) {
        const auto at = std::find_if(out.panels.begin(), out.panels.end(),
                                     [&](const DashboardPanel &p) { return p.id == id; });
        // A copy: the panel is removed from out.panels below, while still read.
        const DashboardPanel original = *at; // NOLINT(performance-unnecessary-copy-initialization)
        const QStringList panelValues = values.value(original.repeat).mid(0, MaximumRepeats);
        const PanelLayout &l = original.layout;
        const bool vertical = original.repeatVertical || sharesRows(out, original);
        const int perRow = vertical ? 1 : std::max(1, DashboardGridColumns / std::max(1, l.w));
        const int rows = int((panelValues.size() + perRow - 1) / perRow);
        QList<DashboardPanel> copies;
        for (qsizetype i = 0; i < panelValues.size(); ++i) {
            DashboardPanel copy = original;
            const QString &value = panelValues.at(i);
            copy.id = original.id + u'/' + value;
            copy.title = copyTitle(original.title, original.repeat, value);
            copy.repeat.clear();
            copy.repeatOf = original.repeatOf.isEmpty() ? original.id : original.repeatOf;
            copy.variables.insert(original.repeat, value);
            copy.layout.x = vertical ? l.x : int(i % perRow) * l.w;
            copy.layout.y = l.y + int(i / perRow) * l.h;
            copies.append(copy);
        }
        const qsizetype index = at - out.panels.begin();
        out.panels.removeAt(index);
        shiftDown(&out, l.y + l.h, (rows - 1) * l.h);
        for (qsizetype i = 0; i < copies.size(); ++i)
            out.panels.insert(index + i, copies.at(i));
    }
    return out;
}

} // namespace Headroom
