// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/shardtablepanel.h"

#include "charts/loadbardelegate.h"
#include "itemmodels/shardtablemodel.h"
#include "literaltext.h"
#include "panels/panelfactory.h"
#include "query/shards/shardquery.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QTableView>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// The panel's column choice as written in the file; the default until data says
// whether more than one set is shown.
QList<int> configuredColumns(const DashboardPanel &config)
{
    QStringList names;
    for (const auto allNames = config.options.value("columns"_L1).toArray();
         const auto &name : allNames)
        names << name.toString();
    const auto columns = shardColumnsFromNames(names);
    return columns && !columns->isEmpty() ? *columns : defaultShardColumns(false);
}

} // namespace

ShardTablePanel::ShardTablePanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new ShardTableModel(this))
    , m_chain(m_model, this)
    , m_title(newTitleLabel())
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_delegate(new LoadBarDelegate(this))
    , m_empty(plainTextLabel(tr("No shards in this range"), m_view))
{
    m_chain.columns->setColumns(configuredColumns(config));
    m_chain.top->setTop(config.options.value("top"_L1).toInt(DefaultShardTableTop));
    m_delegate->setOverloadedPercent(shardOverloadedPercent(config));

    m_filter->setPlaceholderText(tr("Filter shards…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_chain.sort,
            &ShardSortFilterProxyModel::setFilterText);

    m_view->setModel(m_chain.columns);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // The shard name takes the room left (long partition names); numbers keep a width.
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setDefaultSectionSize(80);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle); // shard names differ at their ends
    showItemToolTipsLiterally(m_view); // table and partition names
    // The sort proxy's order shows as the header's indicator; clicking sorts the chain.
    m_view->horizontalHeader()->setSortIndicator(m_chain.columns->viewColumn(ShardLoadColumn),
                                                 Qt::DescendingOrder);
    m_view->setSortingEnabled(true);
    placeDelegate();
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ShardTablePanel::selectionChanged);

    m_empty->setStyleSheet(u"color: gray;"_s);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_filter);
    QVBoxLayout *layout = newPanelLayout();
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    showData();
}

void ShardTablePanel::placeDelegate()
{
    QHeaderView *header = m_view->horizontalHeader();
    const QList<int> &columns = m_chain.columns->columns();
    const bool hasName = columns.contains(ShardNameColumn);
    for (int column = 0; column < columns.size(); ++column) {
        const int shown = columns.at(column);
        m_view->setItemDelegateForColumn(column, shown == ShardLoadColumn ? m_delegate : nullptr);
        // The shard name stretches (the set when there is no name column), the load bar
        // gets room to tell loads apart, the other numbers a fixed width.
        const bool stretch = shown == ShardNameColumn || (!hasName && shown == ShardSetColumn);
        header->setSectionResizeMode(column,
                                     stretch ? QHeaderView::Stretch : QHeaderView::Interactive);
        if (shown == ShardLoadColumn)
            header->resizeSection(column, 160);
    }
}

void ShardTablePanel::showData()
{
    const ShardTableData &table = m_data.as<ShardTableData>();
    {
        const QScopedValueRollback quiet(m_quiet, true);
        // Without a column choice in the file, the set column comes and goes with the
        // number of sets shown (the query's default).
        if (!m_config.options.contains("columns"_L1) && !table.columns.isEmpty()
            && table.columns != m_chain.columns->columns()) {
            m_chain.columns->setColumns(table.columns);
            placeDelegate();
        }
        m_model->setRows(table.rows);
    }
    m_empty->setVisible(table.rows.isEmpty());
    placeEmptyLabel();
    // A new shard in the top may be the one another panel highlighted.
    if (!m_highlight.isEmpty() && !m_view->selectionModel()->hasSelection())
        applyHighlight();
}

void ShardTablePanel::resizeEvent(QResizeEvent *event)
{
    PanelWidget::resizeEvent(event);
    placeEmptyLabel();
}

void ShardTablePanel::placeEmptyLabel()
{
    m_empty->adjustSize();
    const QRect area = m_view->viewport()->geometry();
    m_empty->move(area.left() + (area.width() - m_empty->width()) / 2, area.center().y());
}

void ShardTablePanel::selectionChanged()
{
    if (m_quiet)
        return;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    m_highlight = rows.isEmpty() ? Labels()
                                 : rows.first().data(ShardTableModel::LabelsRole).value<Labels>();
    Q_EMIT highlightRequested(m_highlight);
}

void ShardTablePanel::setHighlight(const Labels &labels)
{
    m_highlight = labels;
    applyHighlight();
}

void ShardTablePanel::applyHighlight()
{
    const QScopedValueRollback quiet(m_quiet, true);
    QItemSelection selection;
    const QAbstractItemModel *model = m_view->model();
    if (!m_highlight.isEmpty()) {
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, 0);
            if (labelsInclude(index.data(ShardTableModel::LabelsRole).value<Labels>(), m_highlight))
                selection.select(index, model->index(row, model->columnCount() - 1));
        }
    }
    m_view->selectionModel()->select(
        selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_view->scrollTo(selection.indexes().first());
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::ShardTable>(const DashboardPanel &config,
                                                        QWidget *parent)
{
    return new ShardTablePanel(config, parent);
}

} // namespace Headroom
