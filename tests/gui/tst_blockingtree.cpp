// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The blocking tree panel end to end without a server: the postgres collector's
// series for two chains of lock waits (PgBlockingPart::publish) through the SampleBus
// into the live buffers, the panel's query (the tree of the newest poll, an ended
// chain shown as no tree), its CSV rows, the tree model under
// QAbstractItemModelTester, and the widget's rows.
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "itemmodels/blockingtreemodel.h"
#include "panels/blockingtreepanel.h"
#include "pgblocking.h"
#include "query/csvexport.h"
#include "query/locks/blockingtreequery.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTest>
#include <QTreeView>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = 1'700'000'000'000;

PgLockSession session(int pid, QList<int> blockedBy, const QString &application,
                      const QString &query, double ageS)
{
    PgLockSession s;
    s.pid = pid;
    s.blockedBy = std::move(blockedBy);
    s.application = application;
    s.user = u"app"_s;
    s.state = s.blockedBy.isEmpty() ? u"idle in transaction"_s : u"active"_s;
    s.waitEvent = s.blockedBy.isEmpty() ? QString() : u"Lock:transactionid"_s;
    s.query = query;
    s.xactAgeS = ageS;
    return s;
}

// Root 100 (nightly) blocks 200, which blocks 300 and 301; root 50 (report) blocks 60.
QList<PgLockSession> twoChains()
{
    return { session(300, { 200 }, u"web"_s, u"UPDATE t SET v = 3 WHERE id = 2"_s, 5),
             session(100, {}, u"nightly"_s, u"DELETE FROM t WHERE id < 1000"_s, 95),
             session(200, { 100 }, u"web"_s, u"UPDATE t SET v = 2 WHERE id = 1"_s, 30),
             session(301, { 200 }, u"web"_s, u"UPDATE t SET v = 4 WHERE id = 2"_s, 4),
             session(50, {}, u"report"_s, u"LOCK TABLE r"_s, 12),
             session(60, { 50 }, u"web"_s, u"SELECT * FROM r"_s, 2) };
}

struct Fixture
{
    SeriesRegistry registry;
    LiveBuffers live { 1000 };
    SampleBus bus { &registry };
    SeriesStore store { &live, nullptr };
    DashboardPanel panel;

    // The series of PostgreSQL's blocking part, or of another collector's family
    // (MariaDB's mariadb.locks) published through collector/blockingtree.h.
    QString family;

    explicit Fixture(const QString &seriesFamily = u"pg.locks"_s)
        : family(seriesFamily)
    {
        bus.addSink(&live);
        panel.id = u"blocking"_s;
        panel.type = PanelType::BlockingTree;
        panel.series = { { u"pg"_s, family + u".session_xact_age_s"_s, {} } };
    }
    void poll(qint64 ts, const QList<PgLockSession> &sessions)
    {
        SampleBatch batch;
        batch.source = u"pg"_s;
        batch.tsMs = ts;
        if (family == "pg.locks"_L1)
            PgBlockingPart::publish(buildBlockingTree(sessions), u"pg"_s, batch);
        else
            publishBlockingTree(buildBlockingTree(sessions), { family, u"db"_s, u"sessions"_s },
                                u"pg"_s, batch);
        bus.publish(batch);
    }
    PanelData query(qint64 toMs)
    {
        return queryPanel(panel, registry, store, toMs - 60'000, toMs, 400);
    }
};

// "pid(blocked_by) depth blocks" per node, depth first.
QStringList shape(const BlockingTreeData &tree)
{
    QStringList out;
    for (const BlockingNode &n : tree.nodes)
        out << u"%1(%2) d%3 b%4"_s.arg(n.pid).arg(n.blockedBy).arg(n.depth).arg(n.blockedInAll);
    return out;
}

} // namespace

class TestBlockingTree : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void treeOfTheNewestPoll();
    void otherCollectorsFamily();
    void cycleAndMissingBlocker();
    void csvRows();
    void model();
    void widget();
};

void TestBlockingTree::treeOfTheNewestPoll()
{
    Fixture f;
    f.poll(T0, twoChains());
    const PanelData data = f.query(T0 + 500);
    QCOMPARE(data.type(), PanelType::BlockingTree);
    const BlockingTreeData &tree = data.as<BlockingTreeData>();
    QCOMPARE(tree.atMs, T0);
    QCOMPARE(shape(tree),
             (QStringList { u"100(0) d0 b3"_s, u"200(100) d1 b2"_s, u"300(200) d2 b0"_s,
                            u"301(200) d2 b0"_s, u"50(0) d0 b1"_s, u"60(50) d1 b0"_s }));
    QCOMPARE(tree.roots, (QList<int> { 0, 4 }));
    const BlockingNode &root = tree.nodes.first();
    QCOMPARE(root.application, u"nightly"_s);
    QCOMPARE(root.state, u"idle in transaction"_s);
    QCOMPARE(root.query, u"DELETE FROM t WHERE id < $1"_s);
    QCOMPARE(root.xactAgeS, 95.0);
    QCOMPARE(tree.nodes.at(1).wait, u"Lock:transactionid"_s);
    QCOMPARE(tree.nodes.at(1).children, (QList<int> { 2, 3 }));

    // The next poll: only the report chain is left; the nightly one is not shown stale.
    f.poll(T0 + 1000,
           { session(50, {}, u"report"_s, u"LOCK TABLE r"_s, 13),
             session(60, { 50 }, u"web"_s, u"SELECT * FROM r"_s, 3) });
    QCOMPARE(shape(f.query(T0 + 1500).as<BlockingTreeData>()),
             (QStringList { u"50(0) d0 b1"_s, u"60(50) d1 b0"_s }));
    // Then nobody waits: no tree, though the sessions' series have samples in range.
    f.poll(T0 + 2000, {});
    const BlockingTreeData none = f.query(T0 + 2500).as<BlockingTreeData>();
    QVERIFY(none.isEmpty());
    QVERIFY(none.roots.isEmpty());
    // A range that ends before the chains: the tree as it was then.
    QCOMPARE(f.query(T0 + 500).as<BlockingTreeData>().nodes.size(), 6);
}

// MariaDB's tree (mariadb.locks.*): the same nodes, its own CSV metric, and a chain that
// ended is no tree (the panel finds the poll through mariadb.locks.blocked).
void TestBlockingTree::otherCollectorsFamily()
{
    Fixture f(u"mariadb.locks"_s);
    f.poll(T0, twoChains());
    const BlockingTreeData tree = f.query(T0 + 500).as<BlockingTreeData>();
    QCOMPARE(tree.nodes.size(), 6);
    QCOMPARE(tree.nodes.first().family, u"mariadb.locks"_s);
    QVERIFY(blockingTreeCsvRows(f.query(T0 + 500)).contains(u",pg,mariadb.locks.session,"_s));
    f.poll(T0 + 1000, {});
    QVERIFY(f.query(T0 + 1500).as<BlockingTreeData>().isEmpty());
}

void TestBlockingTree::cycleAndMissingBlocker()
{
    const auto sample = [](int pid, int blockedBy) {
        Labels labels { { u"pid"_s, QString::number(pid) } };
        if (blockedBy > 0)
            labels.insert(u"blocked_by"_s, QString::number(blockedBy));
        return BlockingSessionSample { SeriesInfo {
                                           { u"pg"_s, u"pg.locks.session_xact_age_s"_s, labels },
                                           u"s"_s,
                                           u"pg"_s,
                                           UseKind::Info,
                                           false },
                                       { T0, 1 } };
    };
    const QHash<QString, qint64> poll { { u"pg"_s, T0 } };
    // 1 and 2 wait on each other; 7 waits on 9, which was not published (the cap).
    const BlockingTreeData tree
        = buildBlockingTreeData({ sample(2, 1), sample(1, 2), sample(7, 9) }, poll);
    QCOMPARE(shape(tree), (QStringList { u"1(2) d0 b1"_s, u"2(1) d1 b0"_s, u"7(9) d0 b0"_s }));
    // A sample of another poll is not part of the tree.
    QVERIFY(buildBlockingTreeData({ sample(1, 0) }, { { u"pg"_s, T0 + 1000 } }).isEmpty());
}

void TestBlockingTree::csvRows()
{
    Fixture f;
    f.poll(T0, twoChains());
    const QString csv = QString::fromUtf8(Headroom::csvRows(f.query(T0 + 500)));
    const QStringList lines = csv.split(u"\r\n"_s, Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 6);
    const Labels root { { u"application"_s, u"nightly"_s },
                        { u"depth"_s, u"0"_s },
                        { u"pid"_s, u"100"_s },
                        { u"query"_s, u"DELETE FROM t WHERE id < $1"_s },
                        { u"state"_s, u"idle in transaction"_s },
                        { u"user"_s, u"app"_s } };
    QCOMPARE(lines.first(),
             u"2023-11-14T22:13:20.000Z,blocking,pg,pg.locks.session,"_s
                 + csvText(labelsToString(root)) + u",3,sessions"_s);
    QVERIFY2(lines.at(1).contains(u"blocked_by=100"_s) && lines.at(1).contains(u"depth=1"_s)
                 && lines.at(1).endsWith(u",2,sessions"_s),
             qPrintable(lines.at(1)));
}

void TestBlockingTree::model()
{
    Fixture f;
    f.poll(T0, twoChains());
    BlockingTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTree(f.query(T0 + 500).as<BlockingTreeData>());
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex nightly = model.index(0, BlockingTreeModel::SessionColumn);
    QCOMPARE(nightly.data().toString(), u"100"_s);
    QCOMPARE(model.index(0, BlockingTreeModel::BlocksColumn).data().toInt(), 3);
    QCOMPARE(model.index(0, BlockingTreeModel::ApplicationColumn).data().toString(), u"nightly"_s);
    QCOMPARE(model.index(0, BlockingTreeModel::AgeColumn).data().toString(), u"95 s"_s);
    QCOMPARE(model.rowCount(nightly), 1);
    const QModelIndex middle = model.index(0, 0, nightly);
    QCOMPARE(middle.data(BlockingTreeModel::PidRole).toInt(), 200);
    QCOMPARE(middle.parent(), nightly);
    QCOMPARE(model.rowCount(middle), 2);
    QCOMPARE(model.index(1, BlockingTreeModel::WaitColumn, middle).data().toString(),
             u"Lock:transactionid"_s);
    QCOMPARE(model.index(1, 0).data().toString(), u"50"_s);
    // A new poll replaces the tree; then an empty one.
    f.poll(T0 + 1000, {});
    model.setTree(f.query(T0 + 1500).as<BlockingTreeData>());
    QCOMPARE(model.rowCount(), 0);
}

void TestBlockingTree::widget()
{
    Fixture f;
    DashboardPanel config = f.panel;
    config.title = u"Who blocks whom"_s;
    BlockingTreePanel panel(config);
    panel.resize(800, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.emptyLabel()->isVisible());
    QVERIFY(!panel.view()->isVisible());
    f.poll(T0, twoChains());
    panel.setData(f.query(T0 + 500));
    QVERIFY(panel.view()->isVisible());
    QVERIFY(!panel.emptyLabel()->isVisible());
    const QAbstractItemModel *model = panel.view()->model();
    const QModelIndex nightly = model->index(0, 0);
    QVERIFY(panel.view()->isExpanded(nightly));
    QVERIFY(panel.view()->isExpanded(model->index(0, 0, nightly)));
    // The leaves are drawn: their rows have a place in the view.
    const QModelIndex leaf = model->index(0, 0, model->index(0, 0, nightly));
    QCOMPARE(leaf.data().toString(), u"300"_s);
    QVERIFY(panel.view()->visualRect(leaf).isValid());
}

QTEST_MAIN(TestBlockingTree)
#include "tst_blockingtree.moc"
