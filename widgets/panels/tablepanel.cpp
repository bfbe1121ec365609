// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/tablepanel.h"

#include "itemmodels/promqltablemodel.h"
#include "literaltext.h"
#include "panels/panelfactory.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <optional>

namespace Headroom {

TablePanel::TablePanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new PromqlTableModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_title(newTitleLabel())
    , m_message(newMessageLabel())
    , m_view(new QTableView(this))
    , m_empty(newEmptyLabel(tr("No series")))
{
    // Until the user picks a column, the rows keep the engine's answer's order (the
    // order must be ascending: the proxy reverses the source rows for column -1
    // descending).
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(PromqlTableModel::SortRole);
    m_view->setModel(m_sorted);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->verticalHeader()->setVisible(false);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    showItemToolTipsLiterally(m_view); // an engine's labels

    QVBoxLayout *layout = newPanelLayout();
    layout->addWidget(m_title);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);
    showData();
}

void TablePanel::showData()
{
    const PromqlTableData &table = m_data.as<PromqlTableData>();
    // Each answer resets the model; the row the user selected stays selected when the
    // new answer still has a series with its labels (a live refresh every few seconds).
    std::optional<Labels> selected;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (!rows.isEmpty()) {
        const int source = m_sorted->mapToSource(rows.first()).row();
        if (source >= 0 && source < m_model->table().rows.size())
            selected = m_model->table().rows.at(source).labels;
    }
    m_model->setTable(table);
    for (int row = 0; selected && row < table.rows.size(); ++row) {
        if (table.rows.at(row).labels != *selected)
            continue;
        const QModelIndex at = m_sorted->mapFromSource(m_model->index(row, 0));
        m_view->selectionModel()->setCurrentIndex(
            at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        break;
    }
    showMessage(m_message);
    m_view->setVisible(!table.isEmpty());
    m_empty->setVisible(table.isEmpty());
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::Table>(const DashboardPanel &config, QWidget *parent)
{
    return new TablePanel(config, parent);
}

} // namespace Headroom
