// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "variablebar.h"

#include "literaltext.h"
#include "query/promql/repeatvalues.h"

#include <QComboBox>
#include <QLabel>

namespace Headroom {

using namespace Qt::StringLiterals;

VariableBar::VariableBar(QWidget *parent)
    : QToolBar(tr("Variables"), parent)
{
    setObjectName(u"variableBar"_s);
}

void VariableBar::setVariables(const QList<DashboardVariable> &variables,
                               const QMap<QString, QString> &values)
{
    clear();
    for (const DashboardVariable &variable : variables) {
        addWidget(plainTextLabel(
            (variable.label.isEmpty() ? variable.name : variable.label) + u": "_s, this));
        auto *combo = new QComboBox(this);
        combo->setObjectName(u"variable:"_s + variable.name);
        combo->setEditable(true); // any value is allowed; options are suggestions
        combo->addItems(variableChoices(variable, {}));
        if (variable.multi)
            combo->setToolTip(tr("Several values: a, b; all of them: *"));
        combo->setCurrentText(values.value(variable.name));
        combo->setMinimumContentsLength(16);
        const QString name = variable.name;
        connect(combo, &QComboBox::activated, this,
                [this, combo, name] { Q_EMIT valueChosen(name, combo->currentText()); });
        addWidget(combo);
    }
    setVisible(!variables.isEmpty());
}

void VariableBar::offerValues(const QList<DashboardVariable> &variables,
                              const QMap<QString, QStringList> &listed)
{
    for (const DashboardVariable &variable : variables) {
        auto *combo = findChild<QComboBox *>(u"variable:"_s + variable.name);
        if (!combo || !listed.contains(variable.name))
            continue;
        const QString text = combo->currentText(); // as shown, maybe being typed
        combo->clear();
        combo->addItems(variableChoices(variable, listed.value(variable.name)));
        combo->setCurrentText(text);
    }
}

} // namespace Headroom
