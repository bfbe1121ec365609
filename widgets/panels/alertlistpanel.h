// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The alert list panel ("type": "alerts"): the dashboard's alert events in the range,
// newest first, filtered by state and severity, each row tinted by severity, the
// message's "what to check" hint as its tooltip. "Acknowledge" marks the selected
// pending or firing alerts as seen (stored in the cache; the list shows "yes").
// Options: "states" (e.g. ["firing", "pending"]) and "minSeverity" preset the filters.
#pragma once

#include "panels/panelwidget.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace Headroom {

class AlertEventFilterModel;
class AlertEventModel;

class AlertListPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit AlertListPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    QComboBox *stateFilter() const { return m_stateFilter; }
    QComboBox *severityFilter() const { return m_severityFilter; }
    QPushButton *acknowledgeButton() const { return m_acknowledge; }
    AlertEventModel *model() const { return m_model; }
    AlertEventFilterModel *filter() const { return m_filter; }

protected:
    void showData() override;

private:
    void applyFilters();
    void updateButtons();
    void acknowledgeSelected();

    AlertEventModel *m_model;
    AlertEventFilterModel *m_filter;
    QLabel *m_title;
    QComboBox *m_stateFilter;
    QComboBox *m_severityFilter;
    QPushButton *m_acknowledge;
    QTableView *m_view;
    QLabel *m_summary;
};

} // namespace Headroom
