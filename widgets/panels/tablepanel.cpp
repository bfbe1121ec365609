#include "panels/tablepanel.h"

#include "itemmodels/promqltablemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

TablePanel::TablePanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new PromqlTableModel(this))
    , m_sorted(new QSortFilterProxyModel(this))
    , m_title(new QLabel(config.title, this))
    , m_message(new QLabel(this))
    , m_view(new QTableView(this))
    , m_empty(new QLabel(tr("No series"), this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_message->setObjectName(u"panelMessage"_s);
    m_message->setTextFormat(Qt::PlainText); // an engine's words are untrusted text
    m_message->setWordWrap(true);
    m_message->setStyleSheet(u"color: gray;"_s);
    m_message->setVisible(false);
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
    m_empty->setStyleSheet(u"color: gray;"_s);
    m_empty->setAlignment(Qt::AlignCenter);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);
    showData();
}

void TablePanel::showData()
{
    const PromqlTableData &table = m_data.as<PromqlTableData>();
    m_model->setTable(table);
    m_message->setText(m_data.message);
    m_message->setToolTip(m_data.warnings.join(u'\n'));
    m_message->setVisible(!m_data.message.isEmpty());
    m_view->setVisible(!table.isEmpty());
    m_empty->setVisible(table.isEmpty());
}

} // namespace Headroom
