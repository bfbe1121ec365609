// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/blockingtreepanel.h"

#include "itemmodels/blockingtreemodel.h"
#include "literaltext.h"
#include "panels/panelfactory.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace Headroom {

BlockingTreePanel::BlockingTreePanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new BlockingTreeModel(this))
    , m_title(newTitleLabel())
    , m_view(new QTreeView(this))
    , m_empty(newEmptyLabel(tr("No session blocks another")))
{
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    showItemToolTipsLiterally(m_view); // statements, application names, clients
    // The query takes the room left; the other columns fit their contents.
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(BlockingTreeModel::QueryColumn,
                                           QHeaderView::Interactive);

    QVBoxLayout *layout = newPanelLayout();
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

template<>
PanelWidget *createPanelWidgetOf<PanelType::BlockingTree>(const DashboardPanel &config,
                                                          QWidget *parent)
{
    return new BlockingTreePanel(config, parent);
}

} // namespace Headroom
