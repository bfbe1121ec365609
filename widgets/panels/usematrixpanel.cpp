// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/usematrixpanel.h"

#include "itemmodels/usematrixmodel.h"
#include "literaltext.h"
#include "panels/panelfactory.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// Paints each cell's fill from the model's level, then the text as usual. Filled here
// rather than through the style's backgroundBrush: some styles ignore it.
class LevelDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        const auto level = UseLevel(index.data(UseMatrixModel::LevelRole).toInt());
        const bool stale = index.data(UseMatrixModel::StaleRole).toBool();
        painter->fillRect(option.rect, UseMatrixPanel::cellColor(level, stale));
        QStyleOptionViewItem opt = option;
        opt.backgroundBrush = Qt::NoBrush;
        opt.palette.setColor(QPalette::Text, stale ? QColor(0x424242) : QColor(Qt::black));
        if (level == UseLevel::Critical)
            opt.font.setBold(true);
        if (stale)
            opt.font.setItalic(true); // a figure from earlier in the range, not current
        QStyledItemDelegate::paint(painter, opt, index);
    }
};
} // namespace

UseMatrixPanel::UseMatrixPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
    , m_model(new UseMatrixModel(this))
    , m_view(new QTableView(this))
    , m_title(plainTextLabel(config.title, this)) // a dashboard file's text
    , m_emptyLabel(new QLabel(this))
    , m_message(plainTextLabel({}, this)) // an engine's words are untrusted text
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setAlignment(Qt::AlignHCenter);
    m_title->setVisible(!config.title.isEmpty());
    layout->addWidget(m_title);

    m_message->setObjectName(u"panelMessage"_s);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(u"color: gray;"_s);
    m_message->setVisible(false);
    layout->addWidget(m_message);

    m_view->setModel(m_model);
    m_view->setItemDelegate(new LevelDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setCornerButtonEnabled(false);
    m_view->setMouseTracking(true); // tooltips per cell
    showItemToolTipsLiterally(m_view); // resource and source names
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    // As tall as its rows (fitToRows): the panel grows with them instead of scrolling.
    m_view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    layout->addWidget(m_view);

    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setText(u"No utilization, saturation or errors series yet"_s);
    layout->addWidget(m_emptyLabel);
    layout->addStretch(1); // a grid row taller than the rows leaves its space below
    m_view->setVisible(false);

    connect(m_view, &QTableView::clicked, this, &UseMatrixPanel::cellClicked);
    fitToRows();
}

QColor UseMatrixPanel::levelColor(UseLevel level)
{
    switch (level) {
    case UseLevel::Ok:
        return QColor(0x81c784); // green
    case UseLevel::Warning:
        return QColor(0xffca28); // amber
    case UseLevel::Critical:
        return QColor(0xe53935); // red
    case UseLevel::Stale:
        return QColor(0xbdbdbd); // grey: there was a figure, it is not current
    case UseLevel::NotMeasured:
        break;
    }
    return QColor(0xeeeeee); // light grey: nothing of this kind on the resource
}

QColor UseMatrixPanel::cellColor(UseLevel level, bool stale)
{
    const QColor fill = levelColor(level);
    if (!stale || level < UseLevel::Ok)
        return fill;
    // Half way to the stale grey: the level stays readable, the cell reads as old.
    const QColor grey = levelColor(UseLevel::Stale);
    return QColor((fill.red() + grey.red()) / 2, (fill.green() + grey.green()) / 2,
                  (fill.blue() + grey.blue()) / 2);
}

void UseMatrixPanel::showData()
{
    m_model->setMatrix(m_data.as<UseMatrix>());
    const bool empty = m_model->rowCount() == 0;
    m_view->setVisible(!empty);
    m_emptyLabel->setVisible(empty);
    // A fleet matrix's engine error shows above the cells the earlier queries gave.
    m_message->setText(m_data.message);
    setLiteralToolTip(m_message, m_data.warnings.join(u'\n'));
    m_message->setVisible(!m_data.message.isEmpty());
    fitToRows();
}

void UseMatrixPanel::fitToRows()
{
    const int rows = m_model->rowCount();
    const int viewHeight = m_view->horizontalHeader()->sizeHint().height()
        + rows * m_view->verticalHeader()->defaultSectionSize() + 2 * m_view->frameWidth();
    m_view->setFixedHeight(viewHeight);
    // What the grid gives the panel at least: its layout's minimum, now that the
    // table's height and what shows are set.
    layout()->invalidate();
    const int height = minimumSizeHint().height();
    if (height != m_fittedHeight) {
        m_fittedHeight = height;
        Q_EMIT fittedHeightChanged();
    }
}

int UseMatrixPanel::fittedHeight() const
{
    return m_fittedHeight;
}

void UseMatrixPanel::cellClicked(const QModelIndex &index)
{
    if (!index.isValid() || index.row() >= m_model->matrix().rows.size())
        return;
    const UseMatrixRow &row = m_model->matrix().rows.at(index.row());
    const auto column = UseColumn(index.column());
    if (row.cell(column).series.isEmpty())
        return; // nothing measured: nothing to chart
    Q_EMIT chartRequested(useCellChart(m_config, row, column));
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::UseMatrix>(const DashboardPanel &config,
                                                       QWidget *parent)
{
    return new UseMatrixPanel(config, parent);
}

} // namespace Headroom
