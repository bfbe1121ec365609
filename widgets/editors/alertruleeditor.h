// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Edits one alert rule. Every field is checked as the user types: OK stays disabled,
// with the field and the reason shown, while the rule is invalid. A preview replays
// the rule over the visible range's stored data (in the pool, a moment after the last
// keystroke) and shows how often it would have fired, with a chart.
#pragma once

#include "document/alertrule.h"
#include "query/alerts/alertpreview.h"

#include <QDialog>
#include <QFutureWatcher>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTimer;

namespace Headroom {

class AlertPreviewChart;
class SeriesRegistry;
class SeriesStore;

class AlertRuleEditor : public QDialog
{
    Q_OBJECT
public:
    // registry and store must outlive the dialog; store may be null (no preview).
    AlertRuleEditor(const AlertRule &rule, const SeriesRegistry &registry, const SeriesStore *store,
                    qint64 fromMs, qint64 toMs, QWidget *parent = nullptr);
    ~AlertRuleEditor() override;

    // The rule as edited; meaningful when problem() is empty.
    AlertRule rule() const { return m_rule; }
    // "threshold: must be a number"; empty when the rule can be used.
    QString problem() const { return m_problem; }
    // The edit line of a field by its JSON name ("name", "metric", "threshold",
    // "recoveryThreshold", "window", "for", ...), for tests and focus.
    QLineEdit *line(const QString &field) const;
    QComboBox *combo(const QString &field) const;
    // The preview of the current rule once computed (previewReady()).
    const AlertPreview &preview() const { return m_preview; }
    QString previewText() const;

Q_SIGNALS:
    void previewReady();

private:
    void validate();
    void startPreview();

    const SeriesRegistry &m_registry;
    const SeriesStore *m_store;
    const qint64 m_fromMs;
    const qint64 m_toMs;
    AlertRule m_rule;
    QString m_problem;
    QHash<QString, QLineEdit *> m_lines;
    QHash<QString, QComboBox *> m_combos;
    QCheckBox *m_enabled;
    QPlainTextEdit *m_hint;
    QLabel *m_message;
    QLabel *m_previewText;
    AlertPreviewChart *m_chart;
    QDialogButtonBox *m_buttons;
    QTimer *m_debounce;
    QFutureWatcher<AlertPreview> m_watcher;
    AlertPreview m_preview;
    bool m_previewAgain = false;
};

// Runs an AlertRuleEditor: the edited rule, or nullopt when cancelled or unchanged.
std::optional<AlertRule> editAlertRule(QWidget *parent, const AlertRule &rule,
                                       const SeriesRegistry &registry, const SeriesStore *store,
                                       qint64 fromMs, qint64 toMs);

} // namespace Headroom
