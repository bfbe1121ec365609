// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// libFuzzer target: the alert rule reader (alerts/alertrulejson.h), which reads the
// "alerts" of every dashboard file a user opens (untrusted input) and the shipped rule
// packs. The input is JSON: a pack ({"rules": [...]}), a dashboard ({"alerts": [...]}),
// an array of rules or one rule. Every rule must be refused with a field and a reason,
// or accepted as a valid rule that saves and reads back to the same rule. Built with
// clang by tests/run-fuzz; tst_fuzzreplay_alertrule runs it over the seeds (the shipped
// packs and dashboards, every dashboard fixture, corpus/alertrule) in every ctest run.
#include "document/alertrulejson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtGlobal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

using namespace Headroom;
using namespace Qt::StringLiterals;

const bool quiet = [] {
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) { });
    return true;
}();

void checkRule(const QJsonValue &value)
{
    if (!value.isObject())
        return;
    AlertRuleProblem problem;
    const auto rule = alertRuleFromJson(value.toObject(), &problem);
    if (!rule) {
        if (problem.reason.isEmpty())
            std::abort(); // a refusal must say why
        return;
    }
    if (validateAlertRule(*rule))
        std::abort(); // the reader accepted what the editor would refuse
    // Save and read back: the same rule, and the same JSON again.
    const QJsonObject saved = alertRuleToJson(*rule);
    AlertRuleProblem again;
    const auto reread = alertRuleFromJson(saved, &again);
    if (!reread || alertRuleToJson(*reread) != saved)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)quiet;
    const QJsonDocument document = QJsonDocument::fromJson(
        QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    QJsonArray rules;
    if (document.isArray()) {
        rules = document.array();
    } else if (document.isObject()) {
        const QJsonObject object = document.object();
        if (object.value(u"rules"_s).isArray())
            rules = object.value(u"rules"_s).toArray();
        else if (object.value(u"alerts"_s).isArray())
            rules = object.value(u"alerts"_s).toArray();
        else
            rules.append(object);
    }
    for (const auto &rule : std::as_const(rules))
        checkRule(rule);
    return 0;
}
