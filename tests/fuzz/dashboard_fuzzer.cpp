// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the dashboard file reader (dashboardfile.h). Dashboards are shared,
// so a file is untrusted input: any bytes must give a dashboard or an error naming the
// file and a reason, never a crash, a hang or a runaway allocation. What it accepts must
// be usable as a session uses it: within the bounds of dashboardlimits.h, variables
// substituted into every source config without an unknown name, every derived series'
// expression parsed and evaluated (or its APDEX T resolved); and saving it must give a file that
// loads back to the same file again, with no conninfo password in it. Built with clang by
// tests/run-fuzz; tst_fuzzreplay_dashboard runs it over the seeds (the shipped dashboards, every
// test fixture, corpus/dashboard) and mutations of them in every ctest run.
#include "core/conninfo.h"
#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"
#include "document/expression.h"

#include <QJsonArray>
#include <QtGlobal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

using namespace Headroom;
using namespace Qt::StringLiterals;

// The reader logs each refusal (headroom.document.dashboard): millions of lines for nothing.
const bool quiet = [] {
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) { });
    return true;
}();

bool withinBounds(const Dashboard &d)
{
    using namespace DashboardLimits;
    if (d.sources.size() > MaximumSources || d.panels.size() > MaximumPanels
        || d.variables.size() > MaximumVariables || d.derived.size() > MaximumDerived
        || d.alerts.size() > MaximumAlertRules || d.rangeMs <= 0 || d.rangeMs > MaximumRangeMs
        || d.refreshMs < MinimumIntervalMs || d.refreshMs > MaximumRefreshMs)
        return false;
    for (const DashboardSource &source : d.sources) {
        if (source.intervalMs < MinimumIntervalMs || source.intervalMs > MaximumIntervalMs
            || source.timeoutMs < MinimumTimeoutMs || source.timeoutMs > MaximumTimeoutMs
            || source.id.size() > MaximumIdLength)
            return false;
    }
    for (const DashboardPanel &panel : d.panels) {
        if (panel.series.size() > MaximumSelectorsPerPanel || panel.layout.x < 0
            || panel.layout.w < 1 || panel.layout.x + panel.layout.w > 12 || panel.layout.h < 1
            || panel.id.size() > MaximumIdLength || panel.title.size() > MaximumNameLength)
            return false;
    }
    return true;
}

// What a session does with a loaded dashboard before any collector runs.
bool usable(const Dashboard &d)
{
    const QMap<QString, QString> values = d.resolveVariables({});
    for (const DashboardSource &source : d.sources) {
        QString error;
        substituteVariables(source.config, values, &error);
        if (!error.isEmpty())
            return false; // the reader lets no unknown ${name} through
    }
    for (const DashboardDerived &derived : d.derived) {
        QString error;
        if (!derived.apdexHistogram.isEmpty()) {
            if (!apdexTMs(derived, values, &error))
                return false; // T, or its variable's default, is checked on reading
            continue;
        }
        const auto expression = Expression::parse(derived.expression, &error);
        if (!expression)
            return false;
        (void)expression->evaluate([](const QString &metric) -> std::optional<double> {
            if (metric.size() % 3 == 0)
                return std::nullopt; // a missing operand
            return double(metric.size()) - 2; // zero too: a division by it
        });
    }
    return true;
}

bool holdsConninfoPassword(const QJsonValue &value)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (it.key().compare(u"conninfo"_s, Qt::CaseInsensitive) == 0 && it->isString()
                && conninfoHasPassword(it->toString()))
                return true;
            if (holdsConninfoPassword(*it))
                return true;
        }
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (const auto &item : array) {
            if (holdsConninfoPassword(item))
                return true;
        }
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)quiet;
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString name = u"fuzz.json"_s;
    const DashboardLoadResult result = parseDashboard(json, name);
    if (!result.ok()) {
        if (result.error.file != name || result.error.reason.isEmpty())
            std::abort(); // a refusal must say what is wrong
        return 0;
    }
    const Dashboard &d = *result.dashboard;
    if (!withinBounds(d) || !usable(d))
        std::abort();

    // Save and load: the written file loads, and writing it again gives the same bytes
    // (the passwords dropped on the first save stay dropped).
    const QByteArray saved = dashboardToJson(d);
    const DashboardLoadResult again = parseDashboard(saved, name);
    if (!again.ok() || dashboardToJson(*again.dashboard) != saved)
        std::abort();
    for (const DashboardSource &source : again.dashboard->sources) {
        if (holdsConninfoPassword(source.config))
            std::abort();
    }
    return 0;
}
