// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "findings/explainview.h"

#include "core/duration.h"
#include "itemmodels/findingsmodel.h"
#include "literaltext.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
QString windowText(qint64 fromMs, qint64 toMs)
{
    return u"%1 – %2 (%3)"_s.arg(
        QDateTime::fromMSecsSinceEpoch(fromMs).toString(u"HH:mm:ss"_s),
        QDateTime::fromMSecsSinceEpoch(toMs).toString(u"HH:mm:ss"_s),
        formatDuration(std::max<qint64>(1000, (toMs - fromMs) / 1000 * 1000)));
}
} // namespace

ExplainView::ExplainView(ChangeRankModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_caption(new QLabel(this))
    , m_tree(new QTreeView(this))
{
    m_caption->setWordWrap(true);
    m_caption->setText(tr("Shift+drag over a time panel to explain a window: every series "
                          "ranked by how much it changed against the 4× longer time before."));
    m_tree->setModel(model);
    m_tree->setUniformRowHeights(true);
    showItemToolTipsLiterally(m_tree); // source and metric names
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(ChangeRankModel::NameColumn, QHeaderView::Stretch);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_caption);
    layout->addWidget(m_tree, 1);
}

QString ExplainView::caption() const
{
    return m_caption->text();
}

void ExplainView::showRunning(qint64 fromMs, qint64 toMs)
{
    m_caption->setText(tr("What changed in %1: ranking…").arg(windowText(fromMs, toMs)));
}

void ExplainView::showResult()
{
    const int groups = m_model->rowCount();
    m_caption->setText(groups == 0
                           ? tr("Nothing changed in %1 (or too little data on either side).")
                                 .arg(windowText(m_model->windowFrom(), m_model->windowTo()))
                           : tr("What changed in %1, against the 4× longer time before:")
                                 .arg(windowText(m_model->windowFrom(), m_model->windowTo())));
    m_tree->expandToDepth(0);
    for (int c = 1; c < ChangeRankModel::ColumnCount; ++c)
        m_tree->resizeColumnToContents(c);
}

} // namespace Headroom
