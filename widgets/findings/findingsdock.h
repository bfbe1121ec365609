// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The Findings dock: which resource is the bottleneck, and since when. A ranked list
// of the analysis' findings over the range shown (refreshed live every few seconds
// while the window follows the data; each row has its onset time and a sparkline of
// its signal), and a "What changed" tab for a window the user selected.
//
// Every analysis runs in the thread pool (QtConcurrent) and comes back by a queued
// call, like the panels' queries; a refresh asked for while one runs is coalesced into
// one follow-up, never started twice. Clicking a finding focuses it (findingFocused:
// the window zooms, marks the onset, emphasises the evidence) and pins the list, so
// what the user is reading does not move under them; Clear, Esc or a click on empty
// space ends the focus and the live refresh goes on.
#pragma once

#include "query/analysis/analysisrun.h"

#include <QDockWidget>
#include <QFutureWatcher>
#include <QTimer>
#include <functional>

class QLabel;
class QPushButton;
class QTabWidget;
class QTreeView;

namespace Headroom {

class ChangeRankModel;
class ExplainView;
class FindingsModel;
class SeriesRegistry;
class SeriesStore;

class FindingsDock : public QDockWidget
{
    Q_OBJECT
public:
    static constexpr int DefaultRefreshMs = 5000;
    static constexpr int SparklineBins = 60;

    explicit FindingsDock(const SeriesRegistry *registry, QWidget *parent = nullptr);
    ~FindingsDock() override;

    // The store must stay valid while an analysis runs (this waits for one in flight).
    void setStore(const SeriesStore *store);
    // The dashboard's sources (empty: every source the registry knows).
    // The dashboard's sources, and its fastest poll (the finest bin an onset gets).
    void setSources(const QStringList &sources, qint64 fastestPollMs = 1000);
    // Where the range to analyse comes from (the window's range, asked at each refresh).
    void setRangeSource(std::function<std::pair<qint64, qint64>()> range);
    // Live: refresh every intervalMs; off: only when refresh() is called.
    void setLive(bool live, int intervalMs = DefaultRefreshMs);
    bool isLive() const { return m_timer.isActive(); }

    // Asynchronous: analyses the range source's range in the pool. While a finding is
    // focused the list is pinned and this does nothing.
    void refresh();
    // Asynchronous: What changed in [fromMs, toMs]; shows the tab.
    void explain(qint64 fromMs, qint64 toMs);
    // Blocks until the analyses in flight are applied (tests; it runs the event loop).
    void waitForIdle();

    FindingsModel *model() const { return m_model; }
    ChangeRankModel *changeModel() const { return m_changes; }
    QTreeView *findingsView() const { return m_list; }
    ExplainView *explainView() const { return m_explain; }
    QTabWidget *tabs() const { return m_tabs; }
    QPushButton *compareButton() const { return m_compareButton; }
    QPushButton *clearButton() const { return m_clearButton; }
    const Analysis::FindingsReport &report() const { return m_report; }
    bool isRefreshing() const { return m_running; }
    int refreshesStarted() const { return m_refreshesStarted; }
    // The thread the last analysis ran on (a test checks that it is not the GUI's).
    Qt::HANDLE lastAnalysisThread() const { return m_lastAnalysisThread; }
    bool hasFocusedFinding() const { return !m_focusedIdentity.isEmpty(); }

    // What a click on the row does: focus its finding (row -1: clear the focus).
    void focusRow(int row);
    void clearFindingFocus();
    // "Compare before/after" on the focused (or current) finding.
    void requestCompare();

Q_SIGNALS:
    // A finding was focused; [dataFromMs, dataToMs] is the range it was found in.
    void findingFocused(const Headroom::Analysis::Finding &finding, qint64 dataFromMs,
                        qint64 dataToMs);
    void findingFocusCleared();
    void compareRequested(const Headroom::Analysis::Finding &finding);
    void refreshed(); // findings applied
    void explained(); // a What changed ranking applied

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Result
    {
        Analysis::FindingsReport report;
        QHash<int, QList<double>> sparklines;
        Qt::HANDLE thread = nullptr;
    };
    struct Explanation
    {
        std::vector<Analysis::ChangeRank> ranks;
        qint64 fromMs = 0, toMs = 0;
    };
    Result analyse(qint64 fromMs, qint64 toMs, const QList<int> &ids) const;
    void apply(const Result &result);
    void updateButtons();
    const Analysis::Finding *currentFinding() const;

    const SeriesRegistry *m_registry;
    const SeriesStore *m_store = nullptr;
    QStringList m_sources;
    qint64 m_minBinMs = 1000;
    std::function<std::pair<qint64, qint64>()> m_rangeSource;
    FindingsModel *m_model;
    ChangeRankModel *m_changes;
    QTabWidget *m_tabs;
    QTreeView *m_list;
    ExplainView *m_explain;
    QLabel *m_status;
    QPushButton *m_compareButton;
    QPushButton *m_clearButton;
    QTimer m_timer;
    QFutureWatcher<Result> m_watcher;
    QFutureWatcher<Explanation> m_explainWatcher;
    // Set from the start of an analysis until its result is applied (the future alone
    // finishes before its result is delivered, and a new one would replace it unseen).
    bool m_running = false;
    bool m_explainRunning = false;
    bool m_pending = false;
    bool m_explainPending = false;
    qint64 m_explainFrom = 0, m_explainTo = 0;
    int m_refreshesStarted = 0;
    Qt::HANDLE m_lastAnalysisThread = nullptr;
    Analysis::FindingsReport m_report;
    QString m_focusedIdentity;
};

} // namespace Headroom
