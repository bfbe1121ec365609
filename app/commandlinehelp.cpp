// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "commandlinehelp.h"

#include <QStringList>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

struct Task
{
    QString title;
    QString summary;
    QStringList examples;
    QStringList options; // names without dashes, in the order shown
};

const QString &tagline()
{
    static const QString text = u"which resource is the bottleneck, and since when? A USE "
                                "method dashboard for databases and the hosts under them."_s;
    return text;
}

// To add an option to a task, name it here; until then it shows under "Other options".
const QList<Task> &tasks()
{
    static const QList<Task> list = {
        { u"Watch"_s,
          u"Open the window on a dashboard (without --dashboard: the welcome page the first "
          "time, then the shipped host dashboard) and keep what is collected in the sample "
          "cache."_s,
          { u"headroom --dashboard postgres-use.json --var pg='service=orders'"_s },
          { u"dashboard"_s, u"var"_s, u"range"_s, u"cache"_s, u"no-cache"_s, u"retention"_s,
            u"minute-retention"_s, u"hour-retention"_s } },
        { u"Open a recording"_s,
          u"Open a cache file read-only, as it was recorded, in the window or for an export; "
          "or save a range as a recording to hand to a colleague."_s,
          { u"headroom --recording incident.sqlite --from -2h --to end --export-png incident.png"_s },
          { u"recording"_s, u"from"_s, u"to"_s, u"save-recording"_s } },
        { u"Import another tool's data"_s,
          u"Read a CSV (Grafana's Inspect > Data, a spreadsheet, Headroom's own --export-csv) "
          "or OpenMetrics text with timestamps into a private cache and treat it as a "
          "recording: every export and the findings work on it."_s,
          { u"headroom --import services.csv --import-map services-map.json "
            "--export-findings findings.csv"_s },
          { u"import"_s, u"import-map"_s } },
        { u"Export without a display"_s,
          u"Collect (or read the cache), write the dashboard as PNG, its data as CSV, the "
          "alerts, the findings or an incident report, and exit with a status a script can "
          "act on. Without --from or --range the range starts where the data does, at least "
          "a minute back."_s,
          { u"headroom --collect-for 60 --export-png host.png --export-csv host.csv"_s,
            u"headroom --dashboard postgres-use.json --var pg='service=orders' --collect-for 30 "
            "--export-report incident.html"_s },
          { u"collect-for"_s, u"export-png"_s, u"export-csv"_s, u"export-alerts"_s,
            u"export-findings"_s, u"explain"_s, u"export-report"_s, u"scale"_s, u"width"_s,
            u"trust"_s } },
        { u"Serve metrics"_s,
          u"Collect the dashboard's sources until stopped (SIGINT, SIGTERM) and serve "
          "their series to Prometheus-compatible engines."_s,
          { u"headroom --serve-metrics 127.0.0.1:9187"_s },
          { u"serve-metrics"_s, u"serve-host"_s } },
        { u"Watch a fleet"_s,
          u"Every host a Prometheus-compatible engine scrapes with node_exporter, from the "
          "shipped fleet dashboard; a multi-value variable takes a,b or *."_s,
          { u"headroom --dashboard fleet-use.json --var prometheus=http://vm.example:8428"_s },
          {} },
    };
    return list;
}

struct ExitCode
{
    QString code;
    QString meaning;
};

const QList<ExitCode> &exitCodes()
{
    static const QList<ExitCode> list = {
        { u"0"_s, u"every requested file was written and every write to the cache succeeded"_s },
        { u"1"_s, u"a requested PNG, CSV or report could not be written"_s },
        { u"2"_s,
          u"bad arguments, a dashboard that cannot be read, or an --import file or map "
          "that is refused"_s },
        { u"3"_s,
          u"the cache: the file given with --cache or --recording cannot be used, or a "
          "write to it failed during the run"_s },
        { u"4"_s, u"--serve-metrics: the address cannot be listened on"_s },
        { u"130, 143"_s,
          u"interrupted by SIGINT or SIGTERM (the files are written for what was "
          "collected)"_s },
    };
    return list;
}

// "--name VALUE" or "-h, --help".
QString optionSynopsis(const QCommandLineOption &option, const QString &dash)
{
    QStringList names;
    for (const auto allNames = option.names(); const QString &name : allNames)
        names << (name.size() == 1 ? dash : dash + dash) + name;
    QString text = names.join(u", "_s);
    if (!option.valueName().isEmpty())
        text += u' ' + option.valueName();
    return text;
}

// The shown options, grouped by task; the rest last, under "Other options".
QList<std::pair<const Task *, QList<QCommandLineOption>>>
grouped(const QList<QCommandLineOption> &options)
{
    QList<QCommandLineOption> shown;
    for (const QCommandLineOption &option : options) {
        if (!(option.flags() & QCommandLineOption::HiddenFromHelp))
            shown << option;
    }
    QList<std::pair<const Task *, QList<QCommandLineOption>>> groups;
    QList<QCommandLineOption> rest = shown;
    for (const Task &task : tasks()) {
        QList<QCommandLineOption> own;
        for (const QString &name : task.options) {
            for (qsizetype i = 0; i < rest.size(); ++i) {
                if (rest.at(i).names().contains(name)) {
                    own << rest.takeAt(i);
                    break;
                }
            }
        }
        groups.append({ &task, own });
    }
    groups.append({ nullptr, rest });
    return groups;
}

// text wrapped to width columns, each line after indent spaces.
QString wrapped(const QString &text, int indent, int width)
{
    QStringList lines;
    QString line;
    for (const auto words = text.split(u' ', Qt::SkipEmptyParts); const QString &word : words) {
        if (!line.isEmpty() && indent + line.size() + 1 + word.size() > width) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : u" "_s) + word;
    }
    if (!line.isEmpty())
        lines << line;
    const QString pad(indent, u' ');
    QString out;
    for (const QString &l : std::as_const(lines))
        out += pad + l + u'\n';
    return out;
}

// A line of a man page that troff would read as a request, escaped; backslashes and
// hyphens as man(7) wants them.
QString roff(const QString &text)
{
    QString out = text;
    out.replace(u'\\', u"\\e"_s);
    out.replace(u'-', u"\\-"_s);
    if (out.startsWith(u'.') || out.startsWith(u'\''))
        out.prepend(u"\\&"_s);
    return out;
}

} // namespace

QString commandLineHelp(const QList<QCommandLineOption> &options)
{
    constexpr int Width = 80;
    QString out = u"Usage: headroom [options]\n"_s + wrapped(u"Headroom: "_s + tagline(), 0, Width);
    for (const auto allEntries = grouped(options); const auto &[task, own] : allEntries) {
        if (!task && own.isEmpty())
            continue;
        out += u'\n' + (task ? task->title : u"Other options"_s) + u":\n"_s;
        if (task) {
            out += wrapped(task->summary, 2, Width);
            for (const QString &example : task->examples)
                out += u"  Example: "_s + example + u'\n';
        }
        for (const QCommandLineOption &option : own) {
            out += u"  "_s + optionSynopsis(option, u"-"_s) + u'\n';
            out += wrapped(option.description(), 6, Width);
        }
    }
    out += u"\nExit status:\n"_s;
    for (const ExitCode &exit : exitCodes())
        out += wrapped(exit.code + u": "_s + exit.meaning, 2, Width);
    out += u"\nMore: man headroom, and the documentation in the source's docs/ folder.\n"_s;
    return out;
}

QString commandLineManPage(const QList<QCommandLineOption> &options, const QString &version)
{
    QString out = u".TH HEADROOM 1 \"\" \"Headroom %1\" \"User Commands\"\n"_s.arg(roff(version));
    out += u".SH NAME\nheadroom \\- "_s + roff(tagline()) + u'\n';
    out += u".SH SYNOPSIS\n.B headroom\n[\\fIoptions\\fR]\n"_s;
    out += u".SH DESCRIPTION\n"_s
        + roff(u"Headroom shows Utilization, Saturation and Errors for every resource (CPU, "
               "memory, disks, network interfaces, databases, shards), keeps the samples in "
               "a local SQLite cache, ranks findings, and exports PNG, CSV and incident "
               "reports, also without a display. Its options by task:"_s)
        + u'\n';
    for (const auto entries = grouped(options); const auto &[task, own] : entries) {
        if (!task && own.isEmpty())
            continue;
        out += u".SH \""_s + roff((task ? task->title : u"Other options"_s).toUpper()) + u"\"\n"_s;
        if (task) {
            out += u".PP\n"_s + roff(task->summary) + u'\n';
            for (const QString &example : task->examples)
                out += u".PP\nExample:\n.RS\n.nf\n"_s + roff(example) + u"\n.fi\n.RE\n"_s;
        }
        for (const QCommandLineOption &option : own) {
            QString synopsis = roff(optionSynopsis(option, u"-"_s));
            if (!option.valueName().isEmpty()) {
                const QString value = roff(option.valueName());
                synopsis.chop(value.size() + 1);
                synopsis = u"\\fB"_s + synopsis + u"\\fR \\fI"_s + value + u"\\fR"_s;
            } else {
                synopsis = u"\\fB"_s + synopsis + u"\\fR"_s;
            }
            out += u".TP\n"_s + synopsis + u'\n' + roff(option.description()) + u'\n';
        }
    }
    out += u".SH \"EXIT STATUS\"\n"_s;
    for (const ExitCode &exit : exitCodes())
        out += u".TP\n.B "_s + roff(exit.code) + u'\n' + roff(exit.meaning) + u'\n';
    out += u".SH \"SEE ALSO\"\n"_s
        + roff(u"The docs folder of the Headroom sources: command-line.md (every option, the "
               "headless report, the exit status), dashboards.md, recordings.md, fleet.md, "
               "security.md."_s)
        + u'\n';
    return out;
}

} // namespace Headroom
