#include "panels/blockingtreepanel.h"

#include "itemmodels/blockingtreemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

BlockingTreePanel::BlockingTreePanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new BlockingTreeModel(this))
    , m_title(new QLabel(config.title, this))
    , m_view(new QTreeView(this))
    , m_empty(new QLabel(tr("No session blocks another"), this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    // The query takes the room left; the other columns fit their contents.
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(BlockingTreeModel::QueryColumn,
                                           QHeaderView::Interactive);
    m_empty->setStyleSheet(u"color: gray;"_s);
    m_empty->setAlignment(Qt::AlignCenter);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);
    showData();
}

void BlockingTreePanel::showData()
{
    const BlockingTreeData &tree = m_data.as<BlockingTreeData>();
    m_model->setTree(tree);
    m_view->expandAll();
    m_view->setVisible(!tree.isEmpty());
    m_empty->setVisible(tree.isEmpty());
}

} // namespace Headroom
