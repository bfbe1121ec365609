// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The values panels and sections repeat over (document/dashboardrepeat.h), on the
// calling thread (a worker: "all values" asks the engine). For each multi-value
// variable a panel or a section repeats over: the values of its current value
// ("web1, web2"); for AllValues, those the engine lists for the variable's labelValues
// over [fromMs, toMs] (its match with the dashboard's variables in), in natural order,
// else the variable's options. One 10 s deadline covers all; an engine that cannot
// answer leaves that variable without values (its panels are drawn once) and says why
// in *messages.
#pragma once
#include "document/dashboard.h"

#include <QMap>
#include <QStringList>

namespace Headroom {

class PromqlEngines;

QMap<QString, QStringList> resolveRepeatValues(const Dashboard &dashboard,
                                               const PromqlEngines *engines, qint64 fromMs,
                                               qint64 toMs, QStringList *messages);

// The same, for the window: also the values the engine lists for every variable with
// labelValues, whatever its value (the variable bar offers them), each asked once.
struct VariableValues
{
    QMap<QString, QStringList> repeat; // as resolveRepeatValues()
    QMap<QString, QStringList> listed; // variable -> the engine's values, natural order
};
// What the variable bar offers for a variable: "*" first for a multi-value variable
// with labelValues, then its options, then the values the engine listed, each once.
QStringList variableChoices(const DashboardVariable &variable, const QStringList &listed);

VariableValues resolveVariableValues(const Dashboard &dashboard, const PromqlEngines *engines,
                                     qint64 fromMs, qint64 toMs, QStringList *messages);

} // namespace Headroom
