// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "findings/findingsdock.h"

#include "findings/explainview.h"
#include "findings/sparklinedelegate.h"
#include "itemmodels/findingsmodel.h"
#include "literaltext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QTabWidget>
#include <QThread>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrentRun>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;
using Analysis::Finding;

FindingsDock::FindingsDock(const SeriesRegistry *registry, QWidget *parent)
    : QDockWidget(tr("Findings"), parent)
    , m_registry(registry)
    , m_model(new FindingsModel(this))
    , m_changes(new ChangeRankModel(this))
{
    setObjectName(u"findingsDock"_s);
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(2, 2, 2, 2);

    auto *bar = new QHBoxLayout;
    m_status = plainTextLabel(tr("No analysis yet"), content);
    m_compareButton = new QPushButton(tr("Compare before/after"), content);
    m_compareButton->setToolTip(tr("Overlay the time before the onset on every time panel"));
    m_clearButton = new QPushButton(tr("Clear"), content);
    m_clearButton->setToolTip(tr("End the focus on a finding (Esc)"));
    bar->addWidget(m_status, 1);
    bar->addWidget(m_compareButton);
    bar->addWidget(m_clearButton);
    layout->addLayout(bar);

    m_tabs = new QTabWidget(content);
    m_list = new QTreeView(m_tabs);
    m_list->setObjectName(u"findingsList"_s);
    m_list->setModel(m_model);
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setItemDelegate(new SparklineDelegate(m_list));
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    m_list->header()->setStretchLastSection(true);
    showItemToolTipsLiterally(m_list); // summaries name resources, statements, sessions
    m_list->viewport()->installEventFilter(this); // a click on empty space clears
    m_tabs->addTab(m_list, tr("Findings"));
    m_explain = new ExplainView(m_changes, m_tabs);
    m_tabs->addTab(m_explain, tr("What changed"));
    layout->addWidget(m_tabs, 1);
    setWidget(content);

    connect(m_list, &QTreeView::clicked, this,
            [this](const QModelIndex &index) { focusRow(index.row()); });
    connect(m_list, &QTreeView::activated, this,
            [this](const QModelIndex &index) { focusRow(index.row()); });
    connect(m_list, &QTreeView::customContextMenuRequested, this, [this](const QPoint &pos) {
        const QModelIndex index = m_list->indexAt(pos);
        if (!index.isValid())
            return;
        QMenu menu(this);
        const int row = index.row();
        menu.addAction(tr("Show Onset"), this, [this, row] { focusRow(row); });
        menu.addAction(tr("Compare Before/After"), this, [this, row] {
            focusRow(row);
            requestCompare();
        });
        menu.addAction(tr("Clear"), this, &FindingsDock::clearFindingFocus);
        menu.exec(m_list->viewport()->mapToGlobal(pos));
    });
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &FindingsDock::updateButtons);
    connect(m_compareButton, &QPushButton::clicked, this, &FindingsDock::requestCompare);
    connect(m_clearButton, &QPushButton::clicked, this, &FindingsDock::clearFindingFocus);

    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        m_running = false;
        apply(m_watcher.result());
        if (std::exchange(m_pending, false))
            refresh();
    });
    connect(&m_explainWatcher, &QFutureWatcher<Explanation>::finished, this, [this] {
        m_explainRunning = false;
        const Explanation e = m_explainWatcher.result();
        m_changes->setRanks(e.ranks, e.fromMs, e.toMs);
        m_explain->showResult();
        Q_EMIT explained();
        if (std::exchange(m_explainPending, false))
            explain(m_explainFrom, m_explainTo);
    });
    connect(&m_timer, &QTimer::timeout, this, &FindingsDock::refresh);
    updateButtons();
}

FindingsDock::~FindingsDock()
{
    // The analyses read our registry and store.
    m_watcher.waitForFinished();
    m_explainWatcher.waitForFinished();
}

void FindingsDock::waitForIdle()
{
    m_watcher.waitForFinished();
    m_explainWatcher.waitForFinished();
    // Deliver the results (and any coalesced follow-up's) before returning.
    while (m_running || m_explainRunning) {
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        m_watcher.waitForFinished();
        m_explainWatcher.waitForFinished();
    }
}

void FindingsDock::setStore(const SeriesStore *store)
{
    m_watcher.waitForFinished();
    m_explainWatcher.waitForFinished();
    m_store = store;
}

void FindingsDock::setSources(const QStringList &sources, qint64 fastestPollMs)
{
    m_sources = sources;
    m_minBinMs = std::max<qint64>(1000, fastestPollMs);
}

void FindingsDock::setRangeSource(std::function<std::pair<qint64, qint64>()> range)
{
    m_rangeSource = std::move(range);
}

void FindingsDock::setLive(bool live, int intervalMs)
{
    if (live)
        m_timer.start(intervalMs);
    else
        m_timer.stop();
}

FindingsDock::Result FindingsDock::analyse(qint64 fromMs, qint64 toMs, const QList<int> &ids) const
{
    Result result;
    result.thread = QThread::currentThreadId();
    // Bins no finer than the fastest poll, as --export-findings and the report bin them.
    result.report = Analysis::analyseRange(*m_store, *m_registry, ids, fromMs, toMs, m_minBinMs);
    // The sparklines: the signal of each finding over the whole range, coarsely.
    QList<int> signalIds;
    for (const Finding &f : result.report.findings)
        if (!signalIds.contains(f.signalSeriesId))
            signalIds.append(f.signalSeriesId);
    const qint64 bin = Analysis::binWidthFor(fromMs, toMs, 1000, SparklineBins);
    const auto tracks = Analysis::readTracks(*m_store, *m_registry, signalIds, fromMs, toMs, bin);
    for (const Analysis::SeriesTrack &track : tracks)
        result.sparklines.insert(track.seriesId,
                                 QList<double>(track.values.begin(), track.values.end()));
    return result;
}

void FindingsDock::refresh()
{
    if (!m_store || !m_rangeSource || hasFocusedFinding())
        return;
    if (m_running) {
        m_pending = true;
        return;
    }
    const auto [from, to] = m_rangeSource();
    if (to <= from)
        return;
    const QList<int> ids = Analysis::seriesOfSources(*m_registry, m_sources);
    ++m_refreshesStarted;
    m_running = true;
    m_watcher.setFuture(
        QtConcurrent::run([this, from, to, ids] { return analyse(from, to, ids); }));
}

void FindingsDock::apply(const Result &result)
{
    m_lastAnalysisThread = result.thread;
    m_report = result.report;
    m_model->setFindings(m_report.findings, result.sparklines);
    int raised = 0;
    for (const Finding &f : m_report.findings)
        raised += f.aboveWarning();
    m_status->setText(
        tr("%n finding(s), %1 above warning, in %2 series; %3", nullptr,
           int(m_report.findings.size()))
            .arg(raised)
            .arg(m_report.seriesAnalysed)
            .arg(QDateTime::fromMSecsSinceEpoch(m_report.toMs).toString(u"HH:mm:ss"_s)));
    if (m_model->rowCount() > 0 && m_list->header()->sectionSize(FindingsModel::TrendColumn) < 90)
        m_list->header()->resizeSection(FindingsModel::TrendColumn, 90);
    updateButtons();
    Q_EMIT refreshed();
}

void FindingsDock::explain(qint64 fromMs, qint64 toMs)
{
    if (!m_store || toMs <= fromMs)
        return;
    m_tabs->setCurrentWidget(m_explain);
    m_explain->showRunning(fromMs, toMs);
    if (m_explainRunning) {
        m_explainPending = true;
        m_explainFrom = fromMs;
        m_explainTo = toMs;
        return;
    }
    const QList<int> ids = Analysis::seriesOfSources(*m_registry, m_sources);
    const SeriesStore *store = m_store;
    const SeriesRegistry *registry = m_registry;
    m_explainRunning = true;
    m_explainWatcher.setFuture(QtConcurrent::run([store, registry, ids, fromMs, toMs] {
        return Explanation { Analysis::explainWindow(*store, *registry, ids, fromMs, toMs), fromMs,
                             toMs };
    }));
}

const Finding *FindingsDock::currentFinding() const
{
    const QModelIndex current = m_list->selectionModel()->currentIndex();
    if (!m_focusedIdentity.isEmpty())
        return m_model->finding(m_model->rowOf(m_focusedIdentity));
    return current.isValid() ? m_model->finding(current.row()) : nullptr;
}

void FindingsDock::focusRow(int row)
{
    const Finding *finding = m_model->finding(row);
    if (!finding) {
        clearFindingFocus();
        return;
    }
    m_focusedIdentity = FindingsModel::identity(*finding);
    const QModelIndex index = m_model->index(row, 0);
    m_list->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tabs->setCurrentWidget(m_list);
    updateButtons();
    Q_EMIT findingFocused(*finding, m_report.fromMs, m_report.toMs);
}

void FindingsDock::clearFindingFocus()
{
    const bool had = hasFocusedFinding();
    m_focusedIdentity.clear();
    m_list->selectionModel()->clearSelection();
    updateButtons();
    if (had)
        Q_EMIT findingFocusCleared();
}

void FindingsDock::requestCompare()
{
    if (const Finding *finding = currentFinding())
        Q_EMIT compareRequested(*finding);
}

void FindingsDock::updateButtons()
{
    m_compareButton->setEnabled(currentFinding() != nullptr);
    m_clearButton->setEnabled(hasFocusedFinding());
}

bool FindingsDock::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list->viewport() && event->type() == QEvent::MouseButtonPress) {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (!m_list->indexAt(mouse->position().toPoint()).isValid()) {
            clearFindingFocus();
            return true;
        }
    }
    return QDockWidget::eventFilter(watched, event);
}

} // namespace Headroom
