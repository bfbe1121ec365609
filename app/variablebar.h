// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The window's "Variables" toolbar: the label and an editable combo box (object name
// "variable:NAME") of each dashboard variable, its options and the values an engine
// lists as suggestions; any value may be typed. Hidden when the dashboard has none.
#pragma once

#include "document/dashboard.h"

#include <QMap>
#include <QStringList>
#include <QToolBar>

namespace Headroom {

class VariableBar : public QToolBar
{
    Q_OBJECT
public:
    explicit VariableBar(QWidget *parent = nullptr);

    // A combo per variable, showing the value in use.
    void setVariables(const QList<DashboardVariable> &variables,
                      const QMap<QString, QString> &values);
    // The values engines listed for variables (labelValues) join their choices; what a
    // combo shows, maybe being typed, stays.
    void offerValues(const QList<DashboardVariable> &variables,
                     const QMap<QString, QStringList> &listed);

Q_SIGNALS:
    void valueChosen(const QString &name, const QString &value);
};

} // namespace Headroom
