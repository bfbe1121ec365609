// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Edits one dashboard panel: type, title, unit, Y scale, thresholds, and what it reads:
// its series (picked from the known series with SeriesPicker) or a PromQL query and the
// engine (promql source) it is asked of. Checks as the user types: OK stays disabled,
// with the reason shown, while the panel reads nothing, reads both, or its thresholds
// contradict each other; given the dashboard (setDashboard), also while the dashboard
// with this panel in it would not load back once saved, in the reader's words.
#pragma once

#include "document/dashboard.h"

#include <QDialog>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace Headroom {

class SeriesPicker;
class SeriesRegistry;

class PanelEditor : public QDialog
{
    Q_OBJECT
public:
    // The registry must outlive the dialog.
    PanelEditor(const DashboardPanel &panel, const SeriesRegistry &registry,
                QWidget *parent = nullptr);

    // The edited panel: id, layout, options and percentiles as given, the rest as edited.
    // Meaningful when problem() is empty.
    DashboardPanel panel() const;
    // Why OK is disabled; empty when the panel can be used.
    QString problem() const { return m_problem; }

    // The dashboard the panel is in (or will be added to): its promql sources are the
    // engines offered for a query, and the panel is checked in it as the reader would.
    void setDashboard(const Dashboard &dashboard);

    // Appends the selectors not already on the panel.
    void addSeries(const QList<SeriesSelector> &selectors);
    QList<SeriesSelector> series() const { return m_series; }
    SeriesPicker *picker() const { return m_picker; }

private:
    PanelType currentType() const;
    QString currentQuery() const;
    void removeSelectedSeries();
    void validate();
    // The reader's complaint about the dashboard with this panel in it, or empty.
    QString problemInDashboard() const;

    DashboardPanel m_original;
    std::optional<Dashboard> m_dashboard;
    QList<SeriesSelector> m_series;
    QString m_problem;

    QComboBox *m_type;
    QLineEdit *m_title;
    QLineEdit *m_unit;
    QLineEdit *m_legend;
    QComboBox *m_yScale;
    QLineEdit *m_warning;
    QLineEdit *m_critical;
    QCheckBox *m_higherIsWorse;
    QPlainTextEdit *m_query;
    QComboBox *m_querySource;
    QListWidget *m_seriesList;
    QPushButton *m_remove;
    SeriesPicker *m_picker;
    QLabel *m_message;
    QDialogButtonBox *m_buttons;
};

// Runs a PanelEditor. Returns the edited panel, or nullopt when the user cancelled or
// changed nothing (so the caller marks the dashboard modified only on a value).
std::optional<DashboardPanel> editPanel(QWidget *parent, const Dashboard &dashboard,
                                        const DashboardPanel &panel,
                                        const SeriesRegistry &registry);

} // namespace Headroom
