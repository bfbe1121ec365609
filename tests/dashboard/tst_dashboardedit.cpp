// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Layout editing on a Dashboard: where added panels go, clamping to the 12-column
// grid, pushing overlapped panels down, unique ids, and that edited dashboards save
// and load back unchanged.
#include "document/dashboardedit.h"
#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// Panels are written "x,y,w,h" separated by spaces and get the ids a, b, c ...
Dashboard dashboardOf(const QString &layouts)
{
    Dashboard dashboard;
    const QStringList boxes = layouts.split(u' ', Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < boxes.size(); ++i) {
        const QStringList n = boxes[i].split(u',');
        if (n.size() != 4)
            qFatal("bad layout in test data");
        DashboardPanel panel;
        panel.id = QString(QChar(char16_t(u'a' + i)));
        panel.type = PanelType::TimeSeries;
        panel.layout = { n[0].toInt(), n[1].toInt(), n[2].toInt(), n[3].toInt() };
        dashboard.panels.append(panel);
    }
    return dashboard;
}

QString layoutsOf(const Dashboard &dashboard)
{
    QStringList boxes;
    for (const DashboardPanel &panel : dashboard.panels) {
        const PanelLayout &l = panel.layout;
        boxes.append(u"%1,%2,%3,%4"_s.arg(l.x).arg(l.y).arg(l.w).arg(l.h));
    }
    return boxes.join(u' ');
}

QString idsOf(const Dashboard &dashboard)
{
    QStringList ids;
    for (const DashboardPanel &panel : dashboard.panels)
        ids.append(panel.id);
    return ids.join(u' ');
}

// Inside the grid and no two panels share a cell.
QString gridProblem(const Dashboard &dashboard)
{
    const auto &panels = dashboard.panels;
    for (qsizetype i = 0; i < panels.size(); ++i) {
        const PanelLayout &l = panels[i].layout;
        if (l.x < 0 || l.y < 0 || l.w < 1 || l.h < 1 || l.x + l.w > DashboardGridColumns)
            return u"%1 outside the grid: %2"_s.arg(panels[i].id, layoutsOf(dashboard));
        for (qsizetype j = i + 1; j < panels.size(); ++j) {
            if (panelsOverlap(l, panels[j].layout))
                return u"%1 overlaps %2: %3"_s.arg(panels[i].id, panels[j].id,
                                                   layoutsOf(dashboard));
        }
        for (const DashboardSection &section : dashboard.sections) {
            if (l.y < section.y && l.y + l.h > section.y)
                return u"%1 reaches into section %2 at row %3: %4"_s.arg(
                    panels[i].id, section.title, QString::number(section.y), layoutsOf(dashboard));
        }
    }
    for (qsizetype i = 1; i < dashboard.sections.size(); ++i) {
        if (dashboard.sections.at(i).y <= dashboard.sections.at(i - 1).y)
            return u"sections out of order"_s;
    }
    return {};
}

} // namespace

class TestDashboardEdit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void addPanel_data();
    void addPanel();
    void uniqueIds_data();
    void uniqueIds();
    void move_data();
    void move();
    void resize_data();
    void resize();
    void removeAndReorder();
    void replace();
    void randomEditsKeepTheGridValid();
    void sectionsStayWhole();
    void editedDashboardRoundTrips();
};

void TestDashboardEdit::addPanel_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("givenId");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("after");

    QTest::newRow("empty dashboard")
        << u""_s << u"CPU load"_s << u""_s << 6 << 4 << u"cpu-load"_s << u"0,0,6,4"_s;
    QTest::newRow("below the lowest bottom") << u"0,0,6,4 6,0,6,8"_s << u"Memory"_s << u""_s << 6
                                             << 4 << u"memory"_s << u"0,0,6,4 6,0,6,8 0,8,6,4"_s;
    QTest::newRow("too wide") << u"0,0,12,2"_s << u"Wide"_s << u""_s << 20 << 3 << u"wide"_s
                              << u"0,0,12,2 0,2,12,3"_s;
    QTest::newRow("too small") << u""_s << u"Tiny"_s << u""_s << 0 << -1 << u"tiny"_s
                               << u"0,0,1,1"_s;
    QTest::newRow("given id kept")
        << u"0,0,6,4"_s << u"CPU"_s << u"mine"_s << 6 << 4 << u"mine"_s << u"0,0,6,4 0,4,6,4"_s;
    QTest::newRow("given id taken")
        << u"0,0,6,4"_s << u"CPU"_s << u"a"_s << 6 << 4 << u"cpu"_s << u"0,0,6,4 0,4,6,4"_s;
    QTest::newRow("id taken by a title")
        << u"0,0,6,4"_s << u"A"_s << u""_s << 6 << 4 << u"a-2"_s << u"0,0,6,4 0,4,6,4"_s;
}

void TestDashboardEdit::addPanel()
{
    QFETCH(QString, before);
    QFETCH(QString, title);
    QFETCH(QString, givenId);
    QFETCH(int, w);
    QFETCH(int, h);
    QFETCH(QString, id);
    QFETCH(QString, after);
    Dashboard dashboard = dashboardOf(before);
    DashboardPanel panel;
    panel.id = givenId;
    panel.title = title;
    panel.type = PanelType::TimeSeries;
    panel.layout = { 5, 1, w, h }; // x and y are decided by addPanel
    QCOMPARE(Headroom::addPanel(dashboard, panel), id);
    QCOMPARE(dashboard.panels.last().id, id);
    QCOMPARE(dashboard.panels.last().title, title);
    QCOMPARE(layoutsOf(dashboard), after);
    QCOMPARE(gridProblem(dashboard), QString());
}

void TestDashboardEdit::uniqueIds_data()
{
    QTest::addColumn<QStringList>("taken");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("id");
    QTest::newRow("plain") << QStringList {} << u"Disk I/O (sda)"_s << u"disk-i-o-sda"_s;
    QTest::newRow("trimmed separators") << QStringList {} << u"  --CPU--  "_s << u"cpu"_s;
    QTest::newRow("letters of any script") << QStringList {} << u"Ünïcode Ω"_s << u"ünïcode-ω"_s;
    QTest::newRow("nothing left") << QStringList {} << u"!!!"_s << u"panel"_s;
    QTest::newRow("empty") << QStringList { u"panel"_s } << u""_s << u"panel-2"_s;
    QTest::newRow("next free number")
        << QStringList { u"cpu"_s, u"cpu-2"_s, u"cpu-3"_s } << u"CPU"_s << u"cpu-4"_s;
    QTest::newRow("gap reused") << QStringList { u"cpu"_s, u"cpu-3"_s } << u"CPU"_s << u"cpu-2"_s;
    // The longest title the editor takes gives an id the loader takes, numbered too.
    const QString longTitle(DashboardLimits::MaximumNameLength, u'x');
    const QString longId(DashboardLimits::MaximumIdLength - 8, u'x');
    QTest::newRow("long title cut") << QStringList {} << longTitle << longId;
    QTest::newRow("long title cut, numbered")
        << QStringList { longId } << longTitle << longId + u"-2"_s;
}

void TestDashboardEdit::uniqueIds()
{
    QFETCH(QStringList, taken);
    QFETCH(QString, title);
    QFETCH(QString, id);
    Dashboard dashboard;
    for (const QString &t : taken) {
        DashboardPanel panel;
        panel.id = t;
        dashboard.panels.append(panel);
    }
    QCOMPARE(uniquePanelId(dashboard, title), id);
}

void TestDashboardEdit::move_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("x");
    QTest::addColumn<int>("y");
    QTest::addColumn<QString>("after");

    QTest::newRow("into free space")
        << u"0,0,6,4 6,0,6,4"_s << u"b"_s << 0 << 4 << u"0,0,6,4 0,4,6,4"_s;
    QTest::newRow("x clamped to the right edge, the panel there pushed down")
        << u"0,0,6,4 6,0,6,4"_s << u"a"_s << 10 << 0 << u"6,0,6,4 6,4,6,4"_s;
    QTest::newRow("negative clamped to 0") << u"3,2,6,4"_s << u"a"_s << -3 << -2 << u"0,0,6,4"_s;
    QTest::newRow("push down cascades") << u"0,0,12,2 0,2,6,4 0,6,6,2 6,10,6,2"_s << u"a"_s << 0
                                        << 3 << u"0,3,12,2 0,5,6,4 0,9,6,2 6,10,6,2"_s;
    QTest::newRow("panel moved up over another: that one goes below it")
        << u"0,0,6,4 0,4,6,4"_s << u"b"_s << 0 << 0 << u"0,4,6,4 0,0,6,4"_s;
    QTest::newRow("unrelated panels stay")
        << u"0,0,6,4 6,0,6,4 0,4,12,2"_s << u"b"_s << 6 << 1 << u"0,0,6,4 6,1,6,4 0,5,12,2"_s;
}

void TestDashboardEdit::move()
{
    QFETCH(QString, before);
    QFETCH(QString, id);
    QFETCH(int, x);
    QFETCH(int, y);
    QFETCH(QString, after);
    Dashboard dashboard = dashboardOf(before);
    QVERIFY(movePanel(dashboard, id, x, y));
    QCOMPARE(layoutsOf(dashboard), after);
    QCOMPARE(gridProblem(dashboard), QString());
    QVERIFY(!movePanel(dashboard, u"nope"_s, 0, 0));
}

void TestDashboardEdit::resize_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::addColumn<QString>("after");

    QTest::newRow("fits") << u"0,0,6,4"_s << u"a"_s << 12 << 6 << u"0,0,12,6"_s;
    QTest::newRow("width clamped to the columns right of x")
        << u"8,0,4,4"_s << u"a"_s << 10 << 4 << u"8,0,4,4"_s;
    QTest::newRow("at least one cell") << u"0,0,6,4"_s << u"a"_s << 0 << -1 << u"0,0,1,1"_s;
    QTest::newRow("no taller than a file may be")
        << u"0,0,6,4"_s << u"a"_s << 6 << 1'000'000 << u"0,0,6,100"_s;
    QTest::newRow("wider pushes the neighbour and what is below it")
        << u"0,0,6,4 6,0,6,4 0,4,12,2"_s << u"a"_s << 8 << 4 << u"0,0,8,4 6,4,6,4 0,8,12,2"_s;
    QTest::newRow("taller pushes the panel below")
        << u"0,0,6,4 0,4,6,4 6,0,6,2"_s << u"a"_s << 6 << 6 << u"0,0,6,6 0,6,6,4 6,0,6,2"_s;
    QTest::newRow("smaller moves nothing")
        << u"0,0,6,4 0,4,6,4"_s << u"a"_s << 3 << 2 << u"0,0,3,2 0,4,6,4"_s;
}

void TestDashboardEdit::resize()
{
    QFETCH(QString, before);
    QFETCH(QString, id);
    QFETCH(int, w);
    QFETCH(int, h);
    QFETCH(QString, after);
    Dashboard dashboard = dashboardOf(before);
    QVERIFY(resizePanel(dashboard, id, w, h));
    QCOMPARE(layoutsOf(dashboard), after);
    QCOMPARE(gridProblem(dashboard), QString());
    QVERIFY(!resizePanel(dashboard, u"nope"_s, 1, 1));
}

void TestDashboardEdit::removeAndReorder()
{
    Dashboard dashboard = dashboardOf(u"0,0,6,4 6,0,6,4 0,4,12,2"_s);
    QVERIFY(removePanel(dashboard, u"b"_s));
    QCOMPARE(idsOf(dashboard), u"a c"_s);
    QVERIFY(!removePanel(dashboard, u"b"_s));
    QCOMPARE(layoutsOf(dashboard), u"0,0,6,4 0,4,12,2"_s); // nothing else moves

    QVERIFY(movePanelInList(dashboard, u"c"_s, -1));
    QCOMPARE(idsOf(dashboard), u"c a"_s);
    QVERIFY(!movePanelInList(dashboard, u"c"_s, -1)); // already first
    QVERIFY(!movePanelInList(dashboard, u"a"_s, +1)); // already last
    QVERIFY(!movePanelInList(dashboard, u"a"_s, -2));
    QVERIFY(movePanelInList(dashboard, u"c"_s, +1));
    QCOMPARE(idsOf(dashboard), u"a c"_s);
}

void TestDashboardEdit::replace()
{
    Dashboard dashboard = dashboardOf(u"0,0,6,4 6,0,6,4 0,4,12,2"_s);
    DashboardPanel edited = dashboard.panels[0];
    edited.title = u"CPU"_s;
    edited.id = u"c"_s; // taken by another panel: the old id stays
    edited.layout = { 0, 0, 9, 4 }; // now overlaps b
    QVERIFY(replacePanel(dashboard, u"a"_s, edited));
    QCOMPARE(idsOf(dashboard), u"a b c"_s);
    QCOMPARE(dashboard.panels[0].title, u"CPU"_s);
    QCOMPARE(layoutsOf(dashboard), u"0,0,9,4 6,4,6,4 0,8,12,2"_s);

    edited.id = u"cpu"_s; // free: taken
    edited.layout = { 11, 0, 4, 4 }; // clamped into the grid
    QVERIFY(replacePanel(dashboard, u"a"_s, edited));
    QCOMPARE(idsOf(dashboard), u"cpu b c"_s);
    QCOMPARE(dashboard.panels[0].layout, (PanelLayout { 8, 0, 4, 4 }));
    QCOMPARE(gridProblem(dashboard), QString());
    QVERIFY(!replacePanel(dashboard, u"a"_s, edited));
}

void TestDashboardEdit::randomEditsKeepTheGridValid()
{
    QRandomGenerator random(20240601); // fixed: a failure can be replayed
    Dashboard dashboard = dashboardOf(u"0,0,6,4 6,0,6,4 0,4,4,3 4,4,8,3"_s);
    dashboard.sections = { { u"S1"_s, 4, false }, { u"S2"_s, 9, true } };
    for (int step = 0; step < 2000; ++step) {
        const QString id = dashboard.panels[random.bounded(int(dashboard.panels.size()))].id;
        switch (random.bounded(4)) {
        case 0:
            movePanel(dashboard, id, random.bounded(-2, 14), random.bounded(-2, 20));
            break;
        case 1:
            resizePanel(dashboard, id, random.bounded(-1, 14), random.bounded(-1, 8));
            break;
        case 2:
            if (dashboard.panels.size() < 10) {
                DashboardPanel panel;
                panel.title = u"P"_s;
                Headroom::addPanel(dashboard, panel);
            }
            break;
        default:
            if (dashboard.panels.size() > 2)
                removePanel(dashboard, id);
        }
        const QString problem = gridProblem(dashboard);
        QVERIFY2(problem.isEmpty(), qPrintable(u"step %1: %2"_s.arg(step).arg(problem)));
    }
    QSet<QString> ids;
    for (const DashboardPanel &panel : std::as_const(dashboard.panels))
        ids.insert(panel.id);
    QCOMPARE(ids.size(), dashboard.panels.size());
}

// A panel grown or moved into a section from above pushes the section down with its
// panels, which stay in it; a new panel at the bottom does the same to an empty
// section there.
void TestDashboardEdit::sectionsStayWhole()
{
    Dashboard dashboard = dashboardOf(u"0,0,12,4 0,4,6,4 6,4,6,4"_s);
    dashboard.sections = { { u"B"_s, 4, false }, { u"C"_s, 10, false } };
    QVERIFY(resizePanel(dashboard, u"a"_s, 6, 6)); // rows 0-5: into B
    QCOMPARE(layoutsOf(dashboard), u"0,0,6,6 0,6,6,4 6,6,6,4"_s);
    QCOMPARE(dashboard.sections.at(0).y, 6);
    QCOMPARE(dashboard.sections.at(1).y, 12);
    QCOMPARE(dashboard.sectionOfRow(dashboard.panels.at(1).layout.y), 0); // b still in B
    QCOMPARE(gridProblem(dashboard), QString());

    QVERIFY(movePanel(dashboard, u"b"_s, 0, 10)); // rows 10-13: into C
    QCOMPARE(dashboard.sections.at(1).y, 14);
    QCOMPARE(gridProblem(dashboard), QString());

    Dashboard empty = dashboardOf(u"0,0,12,4"_s);
    empty.sections = { { u"Later"_s, 5, false } };
    DashboardPanel panel;
    panel.title = u"New"_s;
    Headroom::addPanel(empty, panel); // rows 4-7
    QCOMPARE(empty.sections.at(0).y, 8);
    QCOMPARE(gridProblem(empty), QString());
}

void TestDashboardEdit::editedDashboardRoundTrips()
{
    Dashboard dashboard;
    dashboard.title = u"Edited"_s;
    DashboardSource source;
    source.id = u"host"_s;
    source.plugin = u"host"_s;
    dashboard.sources = { source };
    const auto panelOf = [](const QString &title, const QString &metric) {
        DashboardPanel panel;
        panel.type = PanelType::TimeSeries;
        panel.title = title;
        panel.series = { { u"host"_s, metric, {} } };
        return panel;
    };
    Headroom::addPanel(dashboard, panelOf(u"CPU"_s, u"host.cpu.*"_s));
    Headroom::addPanel(dashboard, panelOf(u"CPU"_s, u"host.cpu.utilization"_s));
    const QString mem = Headroom::addPanel(dashboard, panelOf(u"Memory"_s, u"host.mem.*"_s));
    resizePanel(dashboard, u"cpu"_s, 12, 3);
    movePanel(dashboard, mem, 6, 0);
    DashboardPanel edited = *dashboard.panel(u"cpu-2"_s);
    edited.thresholds = { 80, 95, true };
    edited.series.append({ u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } });
    QVERIFY(replacePanel(dashboard, u"cpu-2"_s, edited));
    QCOMPARE(idsOf(dashboard), u"cpu cpu-2 memory"_s);
    QCOMPARE(layoutsOf(dashboard), u"0,4,12,3 0,7,6,4 6,0,6,4"_s);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"edited.json"_s);
    QString error;
    QVERIFY2(saveDashboard(dashboard, path, &error), qPrintable(error));
    const DashboardLoadResult loaded = loadDashboard(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    QCOMPARE(layoutsOf(*loaded.dashboard), layoutsOf(dashboard));
    QVERIFY(*loaded.dashboard == dashboard);
}

QTEST_GUILESS_MAIN(TestDashboardEdit)
#include "tst_dashboardedit.moc"
