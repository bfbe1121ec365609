// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The table panel ("type": "table"): an engine's instant query as rows (labels, then
// the value; query/promql/promqltable.h), in the engine's answer's order (by value, as
// the options say) until the user sorts by a column header. The engine's message, when
// it could not be read, above the table; "No series" when the answer is empty.
#pragma once

#include "panels/panelwidget.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace Headroom {

class PromqlTableModel;

class TablePanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit TablePanel(const DashboardPanel &config, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    QLabel *emptyLabel() const { return m_empty; }
    QLabel *messageLabel() const { return m_message; }

protected:
    void showData() override;

private:
    PromqlTableModel *m_model;
    QSortFilterProxyModel *m_sorted;
    QLabel *m_title;
    QLabel *m_message;
    QTableView *m_view;
    QLabel *m_empty;
};

} // namespace Headroom
