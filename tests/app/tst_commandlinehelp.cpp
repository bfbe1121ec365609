// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// `headroom --help` and the manual page made from the same text (commandlinehelp.h):
// the options grouped by task, each task with an example, every option the parser
// knows listed exactly once (hidden ones never), the exit status; the manual page in
// roff whose every request line is one it means to send.
#include "commandline.h"

#include <QRegularExpression>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
QString printed(const QString &option)
{
    CommandLine options;
    QString error;
    if (!parseCommandLine({ u"headroom"_s, option }, &options, &error))
        return u"error: "_s + error;
    return options.printAndExit;
}
} // namespace

class TestCommandLineHelp : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QCoreApplication::setApplicationVersion(u"1.2.3"_s); }
    void helpIsGroupedByTask();
    void everyOptionOnce_data();
    void everyOptionOnce();
    void manPage();
};

void TestCommandLineHelp::helpIsGroupedByTask()
{
    const QString help = printed(u"--help"_s);
    qsizetype last = -1;
    for (const QString &task :
         { u"Watch:"_s, u"Open a recording:"_s, u"Import another tool's data:"_s,
           u"Export without a display:"_s, u"Serve metrics:"_s, u"Watch a fleet:"_s,
           u"Other options:"_s, u"Exit status:"_s }) {
        const qsizetype at = help.indexOf(u'\n' + task + u'\n');
        QVERIFY2(at > last, qPrintable(task + u" missing or out of order in:\n"_s + help));
        last = at;
    }
    QCOMPARE(int(help.count(u"  Example: headroom "_s)), 7);
    QCOMPARE(printed(u"-h"_s), help);
    QVERIFY(help.contains(u"130, 143: interrupted by SIGINT or SIGTERM"_s));
    for (const auto lines = help.split(u'\n'); const QString &line : lines)
        QVERIFY2(line.size() <= 80 || line.contains(u"Example: "_s), qPrintable(line));
}

void TestCommandLineHelp::everyOptionOnce_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<int>("times");
    for (const char *option : { "--dashboard FILE",
                                "--var NAME=VALUE",
                                "--cache FILE",
                                "--no-cache",
                                "--retention DAYS",
                                "--minute-retention DAYS",
                                "--hour-retention DAYS",
                                "--recording FILE",
                                "--from WHEN",
                                "--to WHEN",
                                "--range DURATION",
                                "--collect-for SECONDS",
                                "--export-png OUT.png",
                                "--export-csv OUT.csv",
                                "--export-alerts ALERTS.csv",
                                "--export-findings FINDINGS.csv",
                                "--explain",
                                "--export-report REPORT.html|REPORT.pdf",
                                "--save-recording OUT",
                                "--import FILE",
                                "--import-map MAP.json",
                                "--scale N",
                                "--width PX",
                                "--trust",
                                "--serve-metrics ADDRESS:PORT",
                                "--serve-host NAME",
                                "--list-collectors",
                                "-h, --help, --help-all",
                                "-v, --version" })
        QTest::newRow(option) << QString::fromLatin1(option) << 1;
    for (const char *hidden : { "--gui-snapshot", "--quit-after", "--man-page" })
        QTest::newRow(hidden) << QString::fromLatin1(hidden) << 0;
}

void TestCommandLineHelp::everyOptionOnce()
{
    QFETCH(QString, option);
    QFETCH(int, times);
    const QString help = printed(u"--help"_s);
    const QRegularExpression line(u"^  "_s + QRegularExpression::escape(option) + u"( |$)"_s,
                                  QRegularExpression::MultilineOption);
    QCOMPARE(int(help.count(line)), times);
}

void TestCommandLineHelp::manPage()
{
    const QString page = printed(u"--man-page"_s);
    QVERIFY2(page.startsWith(u".TH HEADROOM 1 \"\" \"Headroom 1.2.3\""_s),
             qPrintable(page.left(80)));
    for (const QString &section :
         { u".SH NAME\n"_s, u".SH SYNOPSIS\n"_s, u".SH \"WATCH\"\n"_s,
           u".SH \"EXPORT WITHOUT A DISPLAY\"\n"_s, u".SH \"EXIT STATUS\"\n"_s })
        QVERIFY2(page.contains(section), qPrintable(section));
    QVERIFY(page.contains(u".TP\n\\fB\\-\\-export\\-png\\fR \\fIOUT.png\\fR\n"_s));
    // A text line that troff would read as a request (a '.' or '\'' first) is escaped.
    static const QStringList requests { u"TH"_s, u"SH"_s, u"PP"_s, u"RS"_s, u"RE"_s,
                                        u"nf"_s, u"fi"_s, u"TP"_s, u"B"_s };
    for (const auto pageLines = page.split(u'\n'); const QString &l : pageLines) {
        if (l.startsWith(u'.'))
            QVERIFY2(requests.contains(l.mid(1).section(u' ', 0, 0)), qPrintable(l));
        QVERIFY2(!l.startsWith(u'\''), qPrintable(l));
    }
    QVERIFY(!page.contains(u"gui-snapshot"_s));
}

QTEST_MAIN(TestCommandLineHelp)
#include "tst_commandlinehelp.moc"
