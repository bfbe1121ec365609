// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "dashboardview.h"

#include "engine/seriesstore.h"
#include "panels/panelfactory.h"
#include "panels/panelwidget.h"
#include "query/datastart.h"
#include "query/panels/paneldescriptor.h"
#include "sectionheader.h"

#include <QGridLayout>
#include <QtConcurrentRun>

namespace Headroom {

DashboardView::DashboardView(const SeriesRegistry *registry, QWidget *parent)
    : QWidget(parent)
    , m_registry(registry)
    , m_grid(new QGridLayout(this))
{
    m_grid->setContentsMargins(4, 4, 4, 4);
    m_grid->setSpacing(GridSpacingPx);
    for (int c = 0; c < GridColumns; ++c)
        m_grid->setColumnStretch(c, 1);
    connect(&m_watcher, &QFutureWatcher<QList<PanelData>>::finished, this, [this] {
        apply(m_watcher.result());
        if (m_pending) {
            m_pending = false;
            refresh(m_pendingFrom, m_pendingTo);
        }
    });
}

DashboardView::~DashboardView()
{
    m_watcher.waitForFinished(); // the query reads our registry and store
}

void DashboardView::setStore(const SeriesStore *store)
{
    m_watcher.waitForFinished();
    m_store = store;
}

void DashboardView::clearPanels()
{
    m_watcher.waitForFinished();
    m_pending = false;
    qDeleteAll(m_panels);
    m_panels.clear();
    qDeleteAll(m_headers);
    m_headers.clear();
}

void DashboardView::setDashboard(const Dashboard &dashboard)
{
    clearPanels();
    m_dashboard = dashboard;
    for (const DashboardPanel &config : std::as_const(m_dashboard.panels)) {
        PanelWidget *panel = createPanelWidget(config, this);
        connect(panel, &PanelWidget::rangeSelected, this, &DashboardView::rangeSelected);
        connect(panel, &PanelWidget::explainRequested, this, &DashboardView::explainRequested);
        connect(panel, &PanelWidget::crosshairMoved, this, &DashboardView::setCrosshair);
        connect(panel, &PanelWidget::highlightRequested, this, &DashboardView::setHighlight);
        connect(panel, &PanelWidget::chartRequested, this, &DashboardView::chartRequested);
        connect(panel, &PanelWidget::alertAcknowledged, this, &DashboardView::alertAcknowledged);
        connect(panel, &PanelWidget::fittedHeightChanged, this, &DashboardView::applySections);
        m_panels.append(panel);
        panel->setHighlight(m_highlight);
        panel->setFindingFocus(m_focusOnsetMs, m_focusEvidence);
    }
    for (int i = 0; i < m_dashboard.sections.size(); ++i) {
        const DashboardSection &section = m_dashboard.sections.at(i);
        auto *header = new SectionHeader(section.title, section.collapsed, this);
        header->setFixedHeight(SectionHeaderPx - GridSpacingPx); // the same in the PNG
        connect(header, &SectionHeader::toggled, this, [this, i](bool collapsed) {
            setSectionCollapsed(i, collapsed);
            Q_EMIT sectionToggled(i, collapsed);
        });
        m_headers.append(header);
    }
    applySections();
}

void DashboardView::setSectionCollapsed(int index, bool collapsed)
{
    if (index < 0 || index >= m_dashboard.sections.size())
        return;
    m_dashboard.sections[index].collapsed = collapsed;
    m_headers.at(index)->setCollapsed(collapsed);
    applySections();
}

QList<int> DashboardView::rowHeights() const
{
    int rows = 0;
    for (const DashboardPanel &config : m_dashboard.panels)
        rows = std::max(rows, config.layout.y + config.layout.h);
    for (const DashboardSection &section : m_dashboard.sections)
        rows = std::max(rows, section.y + 1);
    // A row of a folded section closes up unless a shown panel (one that starts above
    // the section) still reaches into it: nothing is ever squeezed.
    QList<bool> covered(rows, false);
    for (const DashboardPanel &config : m_dashboard.panels) {
        const int section = m_dashboard.sectionOfRow(config.layout.y);
        if (section >= 0 && m_dashboard.sections.at(section).collapsed)
            continue;
        for (int r = config.layout.y; r < config.layout.y + config.layout.h && r < rows; ++r)
            covered[r] = true;
    }
    QList<int> heights(rows, RowUnitPx - GridSpacingPx);
    for (int r = 0; r < rows; ++r) {
        const int section = m_dashboard.sectionOfRow(r);
        if (section >= 0 && m_dashboard.sections.at(section).collapsed && !covered.at(r))
            heights[r] = 0;
    }
    fitRowsToPanels(&heights);
    return heights;
}

void DashboardView::fitRowsToPanels(QList<int> *heights) const
{
    // A panel as tall as its content (a USE matrix) sets the heights of its rows when
    // no other panel lies in them; next to other panels it keeps the grid's.
    const auto shown = [this](const PanelWidget *panel) {
        const int section = m_dashboard.sectionOfRow(panel->config().layout.y);
        return section < 0 || !m_dashboard.sections.at(section).collapsed;
    };
    for (const PanelWidget *panel : m_panels) {
        const int fitted = panel->fittedHeight();
        const PanelLayout &l = panel->config().layout;
        if (fitted < 0 || !shown(panel) || l.h < 1 || l.y + l.h > heights->size())
            continue;
        const bool alone
            = std::none_of(m_panels.cbegin(), m_panels.cend(), [&](const PanelWidget *other) {
                  const PanelLayout &o = other->config().layout;
                  return other != panel && shown(other) && o.y < l.y + l.h && l.y < o.y + o.h;
              });
        if (!alone)
            continue;
        // Its rows add up to the content's height (the grid puts no spacing between
        // rows where no panel starts).
        const int rowsHeight = std::max(l.h, fitted);
        for (int r = 0; r < l.h; ++r)
            (*heights)[l.y + r] = rowsHeight / l.h + (r == l.h - 1 ? rowsHeight % l.h : 0);
    }
}

void DashboardView::applySections()
{
    // The grid is laid out again from the rows that show: a folded row is no layout
    // row at all, so no spacing is left behind for it (QGridLayout keeps spacing around
    // empty rows). Section bars get a layout row of their own above their first row.
    const QList<int> heights = rowHeights();
    const int rows = int(heights.size());
    QList<int> layoutRowOf(rows, -1);
    QList<int> headerRow(m_dashboard.sections.size(), -1);
    int next = 0;
    for (int y = 0; y < rows; ++y) {
        for (int i = 0; i < m_dashboard.sections.size(); ++i) {
            if (m_dashboard.sections.at(i).y == y)
                headerRow[i] = next++;
        }
        if (heights.at(y) > 0)
            layoutRowOf[y] = next++;
    }
    for (QWidget *w : std::as_const(m_panels))
        m_grid->removeWidget(w);
    for (QWidget *w : std::as_const(m_headers))
        m_grid->removeWidget(w);
    for (int r = 0; r <= std::max(m_rows, next); ++r) {
        m_grid->setRowStretch(r, 0);
        m_grid->setRowMinimumHeight(r, 0);
    }

    QList<int> hidden(m_dashboard.sections.size(), 0);
    for (PanelWidget *panel : std::as_const(m_panels)) {
        const PanelLayout &l = panel->config().layout;
        const int section = m_dashboard.sectionOfRow(l.y);
        if (section >= 0 && m_dashboard.sections.at(section).collapsed) {
            panel->hide();
            ++hidden[section];
            continue;
        }
        // A shown panel's rows all show (rowHeights keeps them).
        const int top = layoutRowOf.at(l.y);
        const int bottom = layoutRowOf.at(l.y + l.h - 1);
        m_grid->addWidget(panel, top, l.x, bottom - top + 1, l.w);
        panel->show();
    }
    for (int i = 0; i < m_headers.size(); ++i) {
        m_headers.at(i)->setHiddenCount(hidden.at(i));
        m_grid->addWidget(m_headers.at(i), headerRow.at(i), 0, 1, GridColumns);
        m_grid->setRowMinimumHeight(headerRow.at(i), SectionHeaderPx - GridSpacingPx);
    }
    // Every shown grid row is RowUnitPx tall, as in the PNG export (preferredSize): a
    // panel's height is the file's "h", never squeezed to fit the window (the view
    // scrolls), and space below the last row stays empty.
    for (int y = 0; y < rows; ++y) {
        if (layoutRowOf.at(y) >= 0)
            m_grid->setRowMinimumHeight(layoutRowOf.at(y), heights.at(y));
    }
    m_grid->setRowStretch(next, 1);
    m_rows = next;
}

QSize DashboardView::preferredSize(int width) const
{
    int height = 8;
    for (const auto heights = rowHeights(); int h : heights)
        height += h > 0 ? h + GridSpacingPx : 0;
    height += int(m_dashboard.sections.size()) * SectionHeaderPx;
    return QSize(width, std::max(height, RowUnitPx + 8));
}

QList<int> DashboardView::panelWidths() const
{
    QList<int> widths;
    for (const PanelWidget *panel : m_panels)
        widths.append(std::max(200, panel->width())); // a pixel column per point at most
    return widths;
}

QList<PanelData> DashboardView::runQueries(qint64 fromMs, qint64 toMs, const QList<int> &widths,
                                           qint64 compareOffsetMs) const
{
    QList<PanelData> result;
    if (!m_store)
        return result;
    for (qsizetype i = 0; i < m_dashboard.panels.size(); ++i) {
        const DashboardPanel &panel = m_dashboard.panels.at(i);
        PanelData panelData
            = queryPanel(panel, *m_registry, *m_store, fromMs, toMs, widths.value(i, 0));
        if (compareOffsetMs > 0 && panelDescriptor(panel.type).supportsCompare)
            addComparison(&panelData, panel, *m_registry, *m_store, compareOffsetMs,
                          widths.value(i, 0));
        result.append(std::move(panelData));
    }
    return result;
}

void DashboardView::apply(const QList<PanelData> &results)
{
    // A result can outlive its dashboard (queued before setDashboard): match by id.
    for (qsizetype i = 0; i < results.size() && i < m_panels.size(); ++i) {
        if (results.at(i).panelId == m_panels.at(i)->config().id)
            m_panels.at(i)->setData(results.at(i));
    }
    m_earliestPointMs = Headroom::earliestPointMs(results);
    m_resultsFromMs = results.isEmpty() ? 0 : results.constFirst().fromMs;
    Q_EMIT refreshed();
}

void DashboardView::refresh(qint64 fromMs, qint64 toMs)
{
    if (m_watcher.isRunning()) {
        m_pending = true;
        m_pendingFrom = fromMs;
        m_pendingTo = toMs;
        return;
    }
    const QList<int> widths = panelWidths();
    const qint64 offset = m_compareOffsetMs;
    m_watcher.setFuture(QtConcurrent::run(
        [this, fromMs, toMs, widths, offset] { return runQueries(fromMs, toMs, widths, offset); }));
}

void DashboardView::refreshNow(qint64 fromMs, qint64 toMs)
{
    m_watcher.waitForFinished();
    apply(runQueries(fromMs, toMs, panelWidths(), m_compareOffsetMs));
}

QList<PanelData> DashboardView::queryAll(qint64 fromMs, qint64 toMs) const
{
    return runQueries(fromMs, toMs, QList<int>(m_panels.size(), 0), m_compareOffsetMs);
}

void DashboardView::setCrosshair(qint64 ms)
{
    m_crosshairMs = ms;
    for (PanelWidget *panel : std::as_const(m_panels))
        panel->setCrosshair(ms);
}

void DashboardView::setFindingFocus(qint64 onsetMs, const QList<SeriesKey> &evidence)
{
    m_focusOnsetMs = onsetMs;
    m_focusEvidence = evidence;
    for (PanelWidget *panel : std::as_const(m_panels))
        panel->setFindingFocus(onsetMs, evidence);
}

void DashboardView::setHighlight(const Labels &labels)
{
    m_highlight = labels;
    for (PanelWidget *panel : std::as_const(m_panels))
        panel->setHighlight(labels);
}

} // namespace Headroom
