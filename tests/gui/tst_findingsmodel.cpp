// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// FindingsModel and ChangeRankModel under QAbstractItemModelTester: a live refresh
// moves, updates, inserts and removes rows in place, so the selection stays on its
// finding; a consequence is marked under the finding that explains it, and a condition
// the data started in reads "before"; What changed groups series by resource in the
// order of their best D; the focus window and compare offset of a finding.
#include "itemmodels/findingsmodel.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Headroom;
using Analysis::ChangeRank;
using Analysis::Finding;
using Analysis::FindingKind;

class TestFindingsModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void columnsAndRoles();
    void chainAndSinceBefore();
    void liveUpdateKeepsSelection_data();
    void liveUpdateKeepsSelection();
    void changeRanksGroupByResource();
    void focusWindowContainsOnset_data();
    void focusWindowContainsOnset();
};

namespace {
constexpr qint64 Base = 1'700'000'000'000;

Finding make(const QString &resource, FindingKind kind, int rank, double score, qint64 since,
             int signalId)
{
    Finding f;
    f.rank = rank;
    f.source = u"host"_s;
    f.resource = resource;
    f.kind = kind;
    f.signal = u"host.cpu.utilization"_s;
    f.signalSeriesId = signalId;
    f.sinceMs = since;
    f.untilMs = since + 60'000;
    f.score = score;
    f.summary = resource + u" rose"_s;
    f.evidenceSeriesIds = { signalId, signalId + 100 };
    return f;
}

// Findings by a spec "A B C": one per letter, resource = letter, in that rank order.
std::vector<Finding> bySpec(const QString &spec, double score = 0.6)
{
    std::vector<Finding> findings;
    int rank = 1;
    for (const auto names = spec.split(u' ', Qt::SkipEmptyParts); const QString &name : names) {
        findings.push_back(make(name, FindingKind::Saturation, rank, score, Base + rank * 1000,
                                int(name.at(0).unicode())));
        ++rank;
    }
    return findings;
}

QStringList resources(const FindingsModel &model)
{
    QStringList list;
    for (int r = 0; r < model.rowCount(); ++r)
        list << model.index(r, FindingsModel::ResourceColumn).data().toString();
    return list;
}
} // namespace

void TestFindingsModel::columnsAndRoles()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Finding f = make(u"CPU"_s, FindingKind::Utilization, 1, 0.85, Base + 5000, 7);
    model.setFindings({ f }, { { 7, { 1.0, 2.0, 9.0 } } });
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), int(FindingsModel::ColumnCount));
    QCOMPARE(model.index(0, FindingsModel::RankColumn).data().toInt(), 1);
    QCOMPARE(model.index(0, FindingsModel::KindColumn).data().toString(), u"utilization"_s);
    QCOMPARE(model.index(0, FindingsModel::SinceColumn).data().toString(),
             QDateTime::fromMSecsSinceEpoch(Base + 5000).toString(u"HH:mm:ss"_s));
    const QModelIndex any = model.index(0, FindingsModel::SummaryColumn);
    QCOMPARE(any.data(FindingsModel::OnsetRole).toLongLong(), Base + 5000);
    QCOMPARE(any.data(FindingsModel::OnsetIsoRole).toString(), u"2023-11-14T22:13:25Z"_s);
    QCOMPARE(any.data(FindingsModel::EvidenceIdsRole).value<QList<int>>(), QList<int>({ 7, 107 }));
    QCOMPARE(any.data(FindingsModel::SparklineRole).value<QList<double>>(),
             QList<double>({ 1.0, 2.0, 9.0 }));
    QCOMPARE(any.data(FindingsModel::FindingRole).value<Finding>().summary, f.summary);
    QCOMPARE(any.data(FindingsModel::ScoreRole).toDouble(), 0.85);
}

// A chain (causechain.h): the consequence is marked under its lead; a finding since
// before the data says so in its Since. A chain forming on a refresh changes the rows.
void TestFindingsModel::chainAndSinceBefore()
{
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    std::vector<Finding> findings = bySpec(u"A B"_s);
    model.setFindings(findings);
    QCOMPARE(resources(model), QStringList({ u"A"_s, u"B"_s }));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    findings[0].consequences = { 2 };
    findings[1].causedBy = 1;
    findings[1].sinceBefore = true;
    model.setFindings(findings);
    QVERIFY(changed.count() >= 1);
    QCOMPARE(resources(model), QStringList({ u"A"_s, u"\u21B3 B"_s }));
    QCOMPARE(model.index(1, FindingsModel::SinceColumn).data().toString(),
             u"before "_s + QDateTime::fromMSecsSinceEpoch(Base + 2000).toString(u"HH:mm:ss"_s));
    QCOMPARE(model.index(0, FindingsModel::SinceColumn).data().toString(),
             QDateTime::fromMSecsSinceEpoch(Base + 1000).toString(u"HH:mm:ss"_s));
}

void TestFindingsModel::liveUpdateKeepsSelection_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<QString>("selected");
    QTest::addColumn<bool>("reset"); // whether any row of "before" left or came
    QTest::newRow("same") << u"A B C"_s << u"A B C"_s << u"B"_s << false;
    QTest::newRow("selected moves up") << u"A B C"_s << u"C A B"_s << u"C"_s << false;
    QTest::newRow("selected moves down") << u"A B C"_s << u"B C A"_s << u"A"_s << false;
    QTest::newRow("one inserted above") << u"A B C"_s << u"D A B C"_s << u"B"_s << true;
    QTest::newRow("one removed above") << u"A B C"_s << u"B C"_s << u"C"_s << true;
    QTest::newRow("mixed") << u"A B C D E"_s << u"F E C A"_s << u"C"_s << true;
}

void TestFindingsModel::liveUpdateKeepsSelection()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(QString, selected);
    QFETCH(bool, reset);
    FindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setFindings(bySpec(before));
    QItemSelectionModel selection(&model);
    const int row = int(before.split(u' ').indexOf(selected));
    selection.setCurrentIndex(model.index(row, 0),
                              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const QPersistentModelIndex kept(model.index(row, FindingsModel::ResourceColumn));
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removes(&model, &QAbstractItemModel::rowsRemoved);

    // The scores change too, so every row's data changes in place.
    model.setFindings(bySpec(after, 0.7));
    QCOMPARE(resources(model), after.split(u' '));
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserts.count() + removes.count() > 0, reset);
    QVERIFY(kept.isValid());
    QCOMPARE(kept.data().toString(), selected);
    QCOMPARE(selection.currentIndex().row(), int(after.split(u' ').indexOf(selected)));
    QCOMPARE(selection.selectedRows().size(), 1);
    QCOMPARE(selection.selectedRows().first().data(FindingsModel::IdentityRole).toString(),
             FindingsModel::identity(make(selected, FindingKind::Saturation, 0, 0, 0, 0)));
    QCOMPARE(kept.sibling(kept.row(), FindingsModel::ScoreColumn).data().toString(), u"0.70"_s);
}

void TestFindingsModel::changeRanksGroupByResource()
{
    ChangeRankModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto rank = [](int id, const QString &resource, double ks) {
        ChangeRank r;
        r.seriesId = id;
        r.info.key = { u"host"_s, u"m%1"_s.arg(id), {} };
        r.resource = resource;
        r.ks = ks;
        r.baselineMedian = 1;
        r.windowMedian = 2;
        return r;
    };
    model.setRanks({ rank(3, u"disk sda"_s, 0.9), rank(1, u"CPU"_s, 0.8),
                     rank(4, u"disk sda"_s, 0.5), rank(2, u"CPU"_s, 0.2) },
                   Base, Base + 60'000);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, 0).data().toString(), u"disk sda"_s);
    QCOMPARE(model.index(1, 0).data().toString(), u"CPU"_s);
    QCOMPARE(model.rowCount(model.index(0, 0)), 2);
    QCOMPARE(model.index(0, ChangeRankModel::KsColumn, model.index(1, 0)).data().toString(),
             u"0.80"_s);
    QCOMPARE(model.seriesInOrder(), QList<int>({ 3, 4, 1, 2 }));
    QCOMPARE(model.index(1, 0, model.index(0, 0)).data(ChangeRankModel::SeriesIdRole).toInt(), 4);
    model.setRanks({}, Base, Base + 1000);
    QCOMPARE(model.rowCount(), 0);
}

void TestFindingsModel::focusWindowContainsOnset_data()
{
    QTest::addColumn<qint64>("since");
    QTest::addColumn<qint64>("until");
    QTest::addColumn<qint64>("dataFrom");
    QTest::addColumn<qint64>("dataTo");
    constexpr qint64 Min = 60'000;
    QTest::newRow("middle") << Base << Base + 10 * Min << Base - 60 * Min << Base + 60 * Min;
    QTest::newRow("near the start") << Base << Base + 2 * Min << Base - 30'000 << Base + 60 * Min;
    QTest::newRow("to the end") << Base << Base + 5 * Min << Base - 60 * Min << Base + 5 * Min;
    QTest::newRow("at the very end") << Base << Base << Base - 60 * Min << Base;
}

void TestFindingsModel::focusWindowContainsOnset()
{
    QFETCH(qint64, since);
    QFETCH(qint64, until);
    QFETCH(qint64, dataFrom);
    QFETCH(qint64, dataTo);
    Finding f = make(u"CPU"_s, FindingKind::Utilization, 1, 0.9, since, 1);
    f.untilMs = until;
    const auto [from, to] = findingFocusWindow(f, dataFrom, dataTo);
    QVERIFY(from < since);
    QVERIFY(to > since);
    QVERIFY(from >= std::min(dataFrom, since - 60'000));
    QVERIFY(to <= std::max(dataTo, since + 60'000));
    // Some time before the onset to read it against: 2 min, or all the data has.
    QVERIFY(since - from >= std::min<qint64>(2 * 60'000, since - dataFrom));
    QCOMPARE(findingCompareOffset(f), std::max<qint64>(60'000, until - since));
}

QTEST_MAIN(
    TestFindingsModel) // a QGuiApplication: the model tester checks decoration and font roles
#include "tst_findingsmodel.moc"
