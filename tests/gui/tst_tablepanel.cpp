// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The table panel ("type": "table") in the window: PromqlTableModel under
// QAbstractItemModelTester through a reset; the widget's rows in the answer's order,
// values formatted with the unit, sorting by a header (values as numbers, not text),
// the engine's message above the rows, "No series" for an empty answer; and the
// heatmap panel saying an engine's message instead of "No data"; an engine's labels, a
// title and warnings with a tag naming a local image shown as text, no image drawn.
#include "imagetestutil.h"
#include "itemmodels/promqltablemodel.h"
#include "literaltestutil.h"
#include "panels/heatmappanel.h"
#include "panels/tablepanel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
PromqlTableData nicTable()
{
    PromqlTableData table;
    table.source = u"prom"_s;
    table.atMs = 1'000'000;
    table.columns = { u"instance"_s, u"device"_s };
    table.unit = u"B/s"_s;
    // As the query gives them: the largest first.
    for (const auto &[device, value] :
         { std::pair { u"eth10"_s, 2'500'000.0 }, { u"eth2"_s, 900'000.0 }, { u"eth1"_s, 80.0 } })
        table.rows.append({ { { u"instance"_s, u"web:9100"_s }, { u"device"_s, device } }, value });
    return table;
}

QStringList column(const QTableView *view, int c)
{
    QStringList cells;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        cells.append(view->model()->index(r, c).data().toString());
    return cells;
}
} // namespace

class TestTablePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void model()
    {
        PromqlTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.columnCount(), 1); // the value alone
        model.setTable(nicTable());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.valueColumn(), 2);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), u"instance"_s);
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), u"Value"_s);
        QCOMPARE(model.index(0, 1).data().toString(), u"eth10"_s);
        QCOMPARE(model.index(0, 2).data(PromqlTableModel::SortRole).toDouble(), 2'500'000.0);
        QVERIFY2(model.index(0, 2).data().toString().contains(u"B/s"_s),
                 qPrintable(model.index(0, 2).data().toString()));
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(u"device=eth10"_s));
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
    }

    void widget()
    {
        DashboardPanel config;
        config.id = u"nics"_s;
        config.type = PanelType::Table;
        config.title = u"Busiest NICs"_s;
        TablePanel panel(config);
        panel.resize(500, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.emptyLabel()->isVisible()); // nothing read yet
        QVERIFY(!panel.messageLabel()->isVisible());

        PanelData data;
        data.panelId = config.id;
        data.payload = nicTable();
        panel.setData(data);
        QVERIFY(panel.view()->isVisible());
        QVERIFY(!panel.emptyLabel()->isVisible());
        // The answer's order until a header is clicked.
        QCOMPARE(column(panel.view(), 1), (QStringList { u"eth10"_s, u"eth2"_s, u"eth1"_s }));
        // Values sort as numbers (as text "80 B/s" would come last in descending order).
        panel.view()->sortByColumn(2, Qt::AscendingOrder);
        QCOMPARE(column(panel.view(), 1), (QStringList { u"eth1"_s, u"eth2"_s, u"eth10"_s }));
        // Labels sort as text; a new answer keeps the user's sort.
        panel.view()->sortByColumn(1, Qt::AscendingOrder);
        QCOMPARE(column(panel.view(), 1), (QStringList { u"eth1"_s, u"eth10"_s, u"eth2"_s }));
        PromqlTableData fewer = nicTable();
        fewer.rows.removeFirst();
        data.payload = fewer;
        panel.setData(data);
        QCOMPARE(column(panel.view(), 1), (QStringList { u"eth1"_s, u"eth2"_s }));

        // A selected row stays selected through a refresh while its series is in the
        // answer (here it moves from the second row to the first), and none is selected
        // once it is gone.
        const auto selectedDevices = [&] {
            QStringList devices;
            for (const auto selected = panel.view()->selectionModel()->selectedRows(1);
                 const QModelIndex &index : selected)
                devices.append(index.data().toString());
            return devices;
        };
        panel.view()->selectRow(1);
        QCOMPARE(selectedDevices(), QStringList { u"eth2"_s });
        PromqlTableData moved = fewer; // eth1 becomes eth3, which sorts after eth2
        for (PromqlTableRow &row : moved.rows) {
            if (row.labels.value(u"device"_s) == u"eth1"_s)
                row.labels.insert(u"device"_s, u"eth3"_s);
        }
        data.payload = moved;
        panel.setData(data);
        QCOMPARE(column(panel.view(), 1), (QStringList { u"eth2"_s, u"eth3"_s }));
        QCOMPARE(selectedDevices(), QStringList { u"eth2"_s });
        QCOMPARE(panel.view()->currentIndex().row(), 0);
        PromqlTableData gone = moved;
        gone.rows.removeIf(
            [](const PromqlTableRow &row) { return row.labels.value(u"device"_s) == u"eth2"_s; });
        data.payload = gone;
        panel.setData(data);
        QCOMPARE(column(panel.view(), 1), QStringList { u"eth3"_s });
        QVERIFY(selectedDevices().isEmpty());
        data.payload = moved;
        panel.setData(data);
        QVERIFY(selectedDevices().isEmpty());

        // The engine's message above what was read; an empty answer says so.
        data.message = u"http://127.0.0.1:9/: connection refused"_s;
        data.payload = PromqlTableData {};
        panel.setData(data);
        QVERIFY(panel.messageLabel()->isVisible());
        QCOMPARE(panel.messageLabel()->text(), data.message);
        QVERIFY(panel.emptyLabel()->isVisible());
        QVERIFY(!panel.view()->isVisible());
    }

    // An engine's label value, the panel's title and the engine's warnings, each a tag
    // naming a local image: the panel, the row's tooltip and the message's tooltip show
    // the text and draw no pixel of the image.
    void targetTextIsNeverMarkup()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString red = Test::writeRedPng(QDir(dir.path()));
        QVERIFY(!red.isEmpty());
        const QString tag = u"<img src=%1>"_s.arg(red);
        DashboardPanel config;
        config.id = u"nics"_s;
        config.type = PanelType::Table;
        config.title = tag;
        TablePanel panel(config);
        panel.resize(700, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        PromqlTableData table = nicTable();
        table.rows.first().labels.insert(u"instance"_s, tag);
        PanelData data;
        data.panelId = config.id;
        data.payload = table;
        data.message = u"partial answer"_s;
        data.warnings = { tag };
        panel.setData(data);
        QCOMPARE(Test::countColor(panel.grab().toImage(), QColor(255, 0, 0)), 0);
        QCOMPARE(Test::shownAsAutoText(panel.messageLabel()->toolTip()), tag);

        QTableView *view = panel.view();
        Test::hoverItem(view, view->model()->index(0, 1));
        QLabel *tip = Test::visibleToolTip();
        QVERIFY(tip);
        const QString label = labelsToString({ { u"instance"_s, tag } }); // {instance=...}
        QVERIFY2(Test::shownAsAutoText(QToolTip::text()).contains(label.mid(1, label.size() - 2)),
                 qPrintable(QToolTip::text()));
        QCOMPARE(Test::countColor(tip->grab().toImage(), QColor(255, 0, 0)), 0);
        QToolTip::hideText();
    }

    // A PromQL heatmap the engine could not give: its message where the cells would be.
    void heatmapShowsTheEnginesMessage()
    {
        DashboardPanel config;
        config.id = u"heat"_s;
        config.type = PanelType::Heatmap;
        HeatmapPanel panel(config);
        panel.resize(400, 200);
        PanelData data;
        data.panelId = config.id;
        data.fromMs = 0;
        data.toMs = 60'000;
        HeatmapGrid grid;
        grid.fromMs = 0;
        grid.toMs = 60'000;
        grid.columns = 10;
        data.payload = grid;
        panel.setData(data);
        const QImage quiet = panel.grab().toImage();
        data.message = u"bad_data: 1:7: parse error: unexpected end of input"_s;
        panel.setData(data);
        const QImage told = panel.grab().toImage();
        QVERIFY(quiet != told);
        data.message.clear();
        panel.setData(data);
        QCOMPARE(panel.grab().toImage(), quiet);
    }
};

QTEST_MAIN(TestTablePanel)
#include "tst_tablepanel.moc"
