// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// RepeatExpander, the window's repeats without the window: a panel repeated over a
// multi-value variable comes back once per value; only the newest request answers; a
// variable's values are listed only where the engines may be asked.
#include "engine/runtime/livebuffers.h"
#include "engine/seriesstore.h"
#include "repeatexpander.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// A dashboard titled title whose panel "mem" repeats over host = values.
Dashboard repeating(const QString &title, const QString &values)
{
    Dashboard d;
    d.title = title;
    DashboardVariable host;
    host.name = u"host"_s;
    host.multi = true;
    host.defaultValue = values;
    d.variables = { host };
    DashboardPanel mem;
    mem.id = u"mem"_s;
    mem.type = PanelType::TimeSeries;
    mem.repeat = u"host"_s;
    mem.layout = { 0, 0, 6, 3 };
    d.panels = { mem };
    return d;
}

QStringList panelIds(const Dashboard &dashboard)
{
    QStringList ids;
    for (const DashboardPanel &panel : dashboard.panels)
        ids << panel.id;
    return ids;
}

// Lets every expansion in flight finish and its answer arrive.
void settle()
{
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
}

} // namespace

class TestRepeatExpander : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void copyPerValue();
    void newestRequestAnswers();
    void nothingToDoDropsThePending();
    void listsOnlyWhereEnginesMayBeAsked();

private:
    LiveBuffers m_live { 10 };
    const SeriesStore m_store { &m_live, nullptr };
};

void TestRepeatExpander::copyPerValue()
{
    RepeatExpander expander;
    QSignalSpy expanded(&expander, &RepeatExpander::expanded);
    expander.expand(repeating(u"A"_s, u"web1, web2, web3"_s), &m_store, 0, 60'000, false);
    QTRY_COMPARE(expanded.size(), 1);
    const auto expansion = expanded.constFirst().constFirst().value<RepeatExpansion>();
    QVERIFY(expansion.repeats);
    QCOMPARE(expansion.drawn.panels.size(), 3);
    for (const DashboardPanel &panel : expansion.drawn.panels)
        QCOMPARE(panel.repeatOf, u"mem"_s);
    QVERIFY(expansion.listed.isEmpty());
}

void TestRepeatExpander::newestRequestAnswers()
{
    RepeatExpander expander;
    QSignalSpy expanded(&expander, &RepeatExpander::expanded);
    expander.expand(repeating(u"older"_s, u"a, b"_s), &m_store, 0, 60'000, false);
    expander.expand(repeating(u"newer"_s, u"a, b, c, d"_s), &m_store, 0, 60'000, false);
    settle();
    QCOMPARE(expanded.size(), 1);
    const auto expansion = expanded.constFirst().constFirst().value<RepeatExpansion>();
    QCOMPARE(expansion.drawn.title, u"newer"_s);
    QCOMPARE(panelIds(expansion.drawn).size(), 4);
}

void TestRepeatExpander::nothingToDoDropsThePending()
{
    RepeatExpander expander;
    QSignalSpy expanded(&expander, &RepeatExpander::expanded);
    expander.expand(repeating(u"repeats"_s, u"a, b"_s), &m_store, 0, 60'000, false);
    Dashboard plain; // another dashboard, without repeats: nothing to resolve
    expander.expand(plain, &m_store, 0, 60'000, true);
    settle();
    QCOMPARE(expanded.size(), 0);
}

void TestRepeatExpander::listsOnlyWhereEnginesMayBeAsked()
{
    Dashboard d;
    DashboardVariable instance;
    instance.name = u"instance"_s;
    instance.labelValues.label = u"instance"_s;
    d.variables = { instance };
    RepeatExpander expander;
    QSignalSpy expanded(&expander, &RepeatExpander::expanded);
    // An untrusted dashboard's engines are not asked: nothing to do.
    expander.expand(d, &m_store, 0, 60'000, false);
    settle();
    QCOMPARE(expanded.size(), 0);
    // A trusted one's are; without an engine the answer says why, and nothing repeats.
    expander.expand(d, &m_store, 0, 60'000, true);
    QTRY_COMPARE(expanded.size(), 1);
    const auto expansion = expanded.constFirst().constFirst().value<RepeatExpansion>();
    QVERIFY(!expansion.repeats);
    QVERIFY(!expansion.messages.isEmpty());
}

QTEST_GUILESS_MAIN(TestRepeatExpander)
#include "tst_repeatexpander.moc"
