// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// literaltext.h, the one way a target's text reaches a sink that may read markup: for
// hostile strings (a tag naming a local red PNG, the "&lt;" that makes Qt guess rich
// text, a tag on a second line, a doctype, runs of spaces, line breaks), what each sink
// shows is the string itself, and no red pixel is drawn: a QLabel in Qt::AutoText, the
// tooltip on screen, an item view's tooltip, a QtCharts legend and title (and the
// tooltip QtCharts gives a truncated name), a plain-text label. Each rendering test
// first shows the raw string drawing the image, so that its "no red" means something.
#include "imagetestutil.h"
#include "literaltestutil.h"
#include "literaltext.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLegendMarker>
#include <QLineSeries>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestLiteralText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void autoTextShowsTheText_data();
    void autoTextShowsTheText();
    void chartAndHtmlTextShowTheText_data();
    void chartAndHtmlTextShowTheText();
    void labelDrawsNoImage();
    void toolTipShowsTheText();
    void itemToolTipShowsTheText();
    void chartLegendAndTitleDrawNoImage();

private:
    QTemporaryDir m_dir;
    QString m_red; // a local red PNG
    QString m_tag; // <img src=...> naming it
};

void TestLiteralText::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_red = writeRedPng(QDir(m_dir.path()));
    QVERIFY(!m_red.isEmpty());
    m_tag = u"<img src=%1>"_s.arg(m_red);
}

namespace {
void addHostileRows()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("image") << u"<img src=/usr/share/pixmaps/debian-logo.png>"_s;
    QTest::newRow("bold and ampersand") << u"<b>bold</b> & more"_s;
    QTest::newRow("entity guess") << u"x &lt;b&gt; is what Qt reads as rich"_s;
    QTest::newRow("tag on second line") << u"first line\n<img src=x> second"_s;
    QTest::newRow("doctype") << u"<!DOCTYPE html><p>para</p>"_s;
    QTest::newRow("qt tag") << u"<qt>x</qt>"_s;
    QTest::newRow("quotes and brackets") << u"a < b > c \"q\" 'x'"_s;
    QTest::newRow("plain") << u"cpu.utilization all"_s;
}
} // namespace

void TestLiteralText::autoTextShowsTheText_data()
{
    addHostileRows();
    QTest::newRow("spaces and lines") << u"SELECT  a,\n       b\n\nFROM t"_s;
}

void TestLiteralText::autoTextShowsTheText()
{
    QFETCH(QString, text);
    const QString literal = literalAutoText(text);
    QVERIFY(Qt::mightBeRichText(literal));
    QCOMPARE(shownAsAutoText(literal), text);
    QCOMPARE(literalAutoText(QString()), QString()); // no tooltip stays no tooltip
}

void TestLiteralText::chartAndHtmlTextShowTheText_data()
{
    addHostileRows();
}

void TestLiteralText::chartAndHtmlTextShowTheText()
{
    QFETCH(QString, text);
    const QString simple = text.simplified(); // HTML folds white space
    QCOMPARE(shownAsHtml(literalHtml(text)).simplified(), simple);
    const QString chart = literalChartText(text);
    QCOMPARE(shownAsHtml(chart).simplified(), simple);
    // QtCharts gives a truncated name its own string as tooltip, through the guess.
    QCOMPARE(shownAsAutoText(chart).simplified(), simple);
    if (text.toHtmlEscaped() == text)
        QCOMPARE(chart, text); // ordinary names stay as they are
}

void TestLiteralText::labelDrawsNoImage()
{
    QLabel raw(m_tag);
    raw.resize(100, 60);
    QVERIFY(countColor(raw.grab().toImage(), Qt::red) > 100); // the image is drawn

    QLabel label(literalAutoText(m_tag));
    label.resize(400, 60);
    QCOMPARE(countColor(label.grab().toImage(), Qt::red), 0);
    QCOMPARE(shownAsAutoText(label.text()), m_tag);

    QLabel *plain = plainTextLabel(m_tag);
    plain->resize(400, 60);
    QCOMPARE(plain->textFormat(), Qt::PlainText);
    QCOMPARE(countColor(plain->grab().toImage(), Qt::red), 0);
    delete plain;
}

void TestLiteralText::toolTipShowsTheText()
{
    QWidget widget;
    widget.resize(200, 100);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    const QPoint at = widget.mapToGlobal(QPoint(10, 10));

    QToolTip::showText(at, m_tag, &widget);
    QLabel *tip = visibleToolTip();
    QVERIFY(tip);
    QVERIFY(countColor(tip->grab().toImage(), Qt::red) > 100);
    QToolTip::hideText();

    const QString text = u"first: "_s + m_tag + u"\nsecond line"_s;
    showLiteralToolTip(at, text, &widget);
    tip = visibleToolTip();
    QVERIFY(tip);
    QCOMPARE(shownAsAutoText(QToolTip::text()), text);
    QCOMPARE(countColor(tip->grab().toImage(), Qt::red), 0);
    showLiteralToolTip(at, QString(), &widget);
    QTRY_VERIFY(!QToolTip::isVisible());

    setLiteralToolTip(&widget, m_tag);
    QCOMPARE(shownAsAutoText(widget.toolTip()), m_tag);
}

void TestLiteralText::itemToolTipShowsTheText()
{
    QStandardItemModel model(2, 1);
    model.setData(model.index(0, 0), u"row"_s);
    model.setData(model.index(0, 0), m_tag, Qt::ToolTipRole);
    model.setData(model.index(1, 0), u"no tooltip"_s);
    model.setHeaderData(0, Qt::Vertical, m_tag, Qt::ToolTipRole);
    QTableView view;
    view.setModel(&model);
    view.resize(300, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    hoverItem(&view, model.index(0, 0)); // Qt's own: the guess reads the tag
    QVERIFY(visibleToolTip());
    QVERIFY(countColor(visibleToolTip()->grab().toImage(), Qt::red) > 100);
    QToolTip::hideText();

    showItemToolTipsLiterally(&view);
    hoverItem(&view, model.index(0, 0));
    QLabel *tip = visibleToolTip();
    QVERIFY(tip);
    QCOMPARE(shownAsAutoText(QToolTip::text()), m_tag);
    QCOMPARE(countColor(tip->grab().toImage(), Qt::red), 0);
    hoverItem(&view, model.index(1, 0)); // an item without one hides it
    QTRY_VERIFY(!QToolTip::isVisible());

    // A header's tooltip (headerData), literally too.
    QHeaderView *rows = view.verticalHeader();
    const QPoint section(rows->width() / 2, rows->sectionViewportPosition(0) + 2);
    QHelpEvent help(QEvent::ToolTip, section, rows->viewport()->mapToGlobal(section));
    QCoreApplication::sendEvent(rows->viewport(), &help);
    tip = visibleToolTip();
    QVERIFY(tip);
    QCOMPARE(shownAsAutoText(QToolTip::text()), m_tag);
    QCOMPARE(countColor(tip->grab().toImage(), Qt::red), 0);
    QToolTip::hideText();
}

void TestLiteralText::chartLegendAndTitleDrawNoImage()
{
    const auto render = [](const QString &name, const QString &title) {
        auto *chart = new QChart;
        chart->setAnimationOptions(QChart::NoAnimation);
        chart->setTitle(title);
        auto *series = new QLineSeries;
        series->append(0, 0);
        series->append(1, 1);
        series->setName(name);
        chart->addSeries(series);
        chart->createDefaultAxes();
        QChartView view(chart);
        view.resize(500, 300);
        view.show();
        QCoreApplication::processEvents();
        QStringList texts; // every text item the chart shows
        const auto items = view.scene()->items();
        for (QGraphicsItem *item : items)
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
                texts.append(text->toPlainText());
        return std::pair { view.grab().toImage(), texts };
    };
    const QString name = u"all/"_s + m_tag;
    const auto [raw, rawTexts] = render(name, m_tag);
    QVERIFY(countColor(raw, Qt::red) > 100);

    const auto [image, texts] = render(literalChartText(name), literalChartText(m_tag));
    QCOMPARE(countColor(image, Qt::red), 0);
    QVERIFY2(texts.contains(name), qPrintable(texts.join(u" | "_s)));
    QVERIFY2(texts.contains(m_tag), qPrintable(texts.join(u" | "_s)));
}

QTEST_MAIN(TestLiteralText)
#include "tst_literaltext.moc"
