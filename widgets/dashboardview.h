// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The dashboard grid: one panel widget per dashboard panel, placed on a 12-column
// grid. Queries for a refresh run in the thread pool and come back by queued call;
// the GUI thread only applies finished data.
#pragma once

#include "document/dashboard.h"
#include "query/panelquery.h"

#include <QFutureWatcher>
#include <QList>
#include <QWidget>

class QGridLayout;

namespace Headroom {

class SeriesRegistry;
class SeriesStore;
class PanelWidget;
class SectionHeader;

class DashboardView : public QWidget
{
    Q_OBJECT
public:
    DashboardView(const SeriesRegistry *registry, QWidget *parent = nullptr);
    ~DashboardView() override;

    // The store must stay valid while a refresh runs.
    void setStore(const SeriesStore *store);
    void setDashboard(const Dashboard &dashboard);
    // The dashboard as drawn (repeated panels expanded).
    const Dashboard &dashboard() const { return m_dashboard; }
    const QList<PanelWidget *> &panels() const { return m_panels; }
    // One header per section of the dashboard, in its order; folding one hides the
    // panels whose top row lies in the section and closes up its rows.
    const QList<SectionHeader *> &sectionHeaders() const { return m_headers; }
    void setSectionCollapsed(int index, bool collapsed);

    // Asynchronous: queries in the pool, applied when done. A refresh requested while
    // one runs is coalesced into a single follow-up.
    void refresh(qint64 fromMs, qint64 toMs);
    // Synchronous, for the headless export and tests.
    void refreshNow(qint64 fromMs, qint64 toMs);
    // Every panel's data at full resolution (for the CSV export).
    QList<PanelData> queryAll(qint64 fromMs, qint64 toMs) const;
    // Of the results applied last: the earliest point of any line (0: none) and the
    // start of the range they were queried for (where the data starts; RangeController).
    qint64 earliestPointMs() const { return m_earliestPointMs; }
    qint64 resultsFromMs() const { return m_resultsFromMs; }

    // Linked panels: the crosshair instant (-1: none) and the emphasised labels are
    // passed to every panel, whichever panel they came from.
    void setCrosshair(qint64 ms);
    qint64 crosshair() const { return m_crosshairMs; }
    void setHighlight(const Labels &labels);
    const Labels &highlight() const { return m_highlight; }
    // Compare mode: time charts overlay the range offsetMs earlier (before vs after a
    // change), shifted onto the current one; 0 turns it off. Takes effect on the next
    // refresh.
    // A finding in focus: its onset marked on every time panel, its evidence series
    // emphasised; kept across refreshes and dashboard changes until cleared.
    void setFindingFocus(qint64 onsetMs, const QList<SeriesKey> &evidence);
    void clearFindingFocus() { setFindingFocus(-1, {}); }
    qint64 focusOnset() const { return m_focusOnsetMs; }
    const QList<SeriesKey> &focusEvidence() const { return m_focusEvidence; }
    void setCompareOffset(qint64 offsetMs) { m_compareOffsetMs = std::max<qint64>(0, offsetMs); }
    qint64 compareOffset() const { return m_compareOffsetMs; }

    static constexpr int GridColumns = DashboardGridColumns;
    // Height of one grid row at scale 1, on screen and in the PNG export: a panel of the
    // usual "h": 4 is 240 to 252 px tall (QGridLayout leaves out the spacing of rows where
    // no panel starts), about four rows of panels on a 1080p screen.
    static constexpr int RowUnitPx = 64;
    static constexpr int GridSpacingPx = 4; // between panels, and part of each row's unit
    static constexpr int SectionHeaderPx = 28; // a section's bar, above its first row

    // Size that fits the grid at `width` pixels, for rendering off screen.
    QSize preferredSize(int width) const;

Q_SIGNALS:
    void rangeSelected(qint64 fromMs, qint64 toMs);
    // Shift+drag on a time panel: explain this window (What changed).
    void explainRequested(qint64 fromMs, qint64 toMs);
    void refreshed();
    // A panel asked for a time chart of some series (a USE matrix cell was clicked).
    void chartRequested(const Headroom::DashboardPanel &chart);
    void alertAcknowledged(const QString &ruleId, const Headroom::SeriesKey &series, qint64 upToMs);
    // A section was folded or unfolded from its header (the dashboard is modified).
    void sectionToggled(int index, bool collapsed);

private:
    QList<PanelData> runQueries(qint64 fromMs, qint64 toMs, const QList<int> &widths,
                                qint64 compareOffsetMs) const;
    void apply(const QList<PanelData> &results);
    QList<int> panelWidths() const;
    void clearPanels();
    // Panel visibility and row heights as the sections' folding says.
    void applySections();
    // Heights of the grid rows 0..rows-1 (0: folded away) and the rows they span.
    QList<int> rowHeights() const;
    // Rows of a panel as tall as its content (PanelWidget::fittedHeight) take its height.
    void fitRowsToPanels(QList<int> *heights) const;

    const SeriesRegistry *m_registry;
    const SeriesStore *m_store = nullptr;
    Dashboard m_dashboard;
    QGridLayout *m_grid;
    QList<PanelWidget *> m_panels;
    QList<SectionHeader *> m_headers;
    int m_rows = 0; // layout rows in use (shown grid rows and section bars)
    QFutureWatcher<QList<PanelData>> m_watcher;
    bool m_pending = false;
    qint64 m_pendingFrom = 0, m_pendingTo = 0;
    qint64 m_crosshairMs = -1;
    qint64 m_compareOffsetMs = 0;
    qint64 m_earliestPointMs = 0, m_resultsFromMs = 0;
    Labels m_highlight;
    qint64 m_focusOnsetMs = -1;
    QList<SeriesKey> m_focusEvidence;
};

} // namespace Headroom
