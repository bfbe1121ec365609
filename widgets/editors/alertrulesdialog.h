// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alerts ▸ Edit Rules…: every rule in force on the dashboard (its pack's and its own)
// with where it comes from; add, edit, duplicate, remove, and reset a changed pack rule.
// The result is the dashboard's own rules: new ones, changed pack rules (same id) and
// pack rules switched off ("enabled": false).
#pragma once

#include "document/alertrule.h"

#include <QDialog>
#include <optional>

class QTableWidget;
class QPushButton;

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

class AlertRulesDialog : public QDialog
{
    Q_OBJECT
public:
    AlertRulesDialog(const QString &pack, const QList<AlertRule> &own,
                     const SeriesRegistry &registry, const SeriesStore *store, qint64 fromMs,
                     qint64 toMs, QWidget *parent = nullptr);

    // The dashboard's own rules as edited.
    QList<AlertRule> ownRules() const { return m_own; }
    QTableWidget *table() const { return m_table; }
    // Opens the editor on a row (also what double-click does); returns whether it changed.
    bool editRow(int row);
    // Adds a new rule (a copy of the row's when row >= 0) through the editor.
    bool addRule(int copyOfRow = -1);
    void removeRow(int row);

private:
    void refill();
    void updateButtons();
    // The pack's rules, each replaced by the dashboard's of the same id, then the
    // dashboard's others (the table's rows); *origins says where each comes from.
    QList<AlertRule> allRules(QStringList *origins = nullptr) const;
    AlertRule effective(int row) const;

    QList<AlertRule> m_pack;
    QList<AlertRule> m_own;
    const SeriesRegistry &m_registry;
    const SeriesStore *m_store;
    qint64 m_fromMs;
    qint64 m_toMs;
    QTableWidget *m_table;
    QPushButton *m_edit;
    QPushButton *m_duplicate;
    QPushButton *m_remove;
};

// Runs the dialog; the new own rules, or nullopt when cancelled or unchanged.
std::optional<QList<AlertRule>> editAlertRules(QWidget *parent, const QString &pack,
                                               const QList<AlertRule> &own,
                                               const SeriesRegistry &registry,
                                               const SeriesStore *store, qint64 fromMs,
                                               qint64 toMs);

} // namespace Headroom
