// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alert rules as JSON (the "alerts" array of a dashboard file and the rule packs in
// resources/alerts), and the packs themselves.
#pragma once

#include "document/alertrule.h"

#include <QJsonObject>
#include <optional>

namespace Headroom {

// nullopt with *problem naming the field (relative to the rule object) and the reason.
std::optional<AlertRule> alertRuleFromJson(const QJsonObject &object, AlertRuleProblem *problem);
QJsonObject alertRuleToJson(const AlertRule &rule);

// Rule packs shipped in resources (":/alerts/<name>.json"): "use" is the default USE
// pack. nullopt with *error when the pack is unknown or broken.
QStringList alertPackNames();
std::optional<QList<AlertRule>> loadAlertPack(const QString &name, QString *error);

// A dashboard's rules in force: its pack's rules, each replaced by the dashboard's rule
// of the same id when there is one, then the dashboard's other rules.
QList<AlertRule> effectiveAlertRules(const QString &pack, const QList<AlertRule> &own);

} // namespace Headroom
