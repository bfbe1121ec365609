// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/seriespicker.h"

#include "itemmodels/seriespickermodel.h"
#include "itemmodels/seriestreemodel.h"
#include "literaltext.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

SeriesPicker::SeriesPicker(const SeriesRegistry &registry, QWidget *parent)
    : QWidget(parent)
    , m_tree(new SeriesTreeModel(registry, this))
    , m_picker(new SeriesPickerModel(m_tree, this))
    , m_filter(new QLineEdit(this))
    , m_view(new QListView(this))
    , m_count(new QLabel(this))
{
    m_filter->setObjectName(u"seriesFilter"_s);
    m_filter->setPlaceholderText(tr("Filter: words of source, metric or labels, e.g. cpu all"));
    m_filter->setClearButtonEnabled(true);
    m_view->setObjectName(u"seriesList"_s);
    m_view->setModel(m_picker);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setUniformItemSizes(true);
    m_view->setTextElideMode(Qt::ElideMiddle); // statement texts can be long
    showItemToolTipsLiterally(m_view); // label values, statement texts
    m_count->setObjectName(u"seriesCount"_s);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_count);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_picker->setFilterText(text);
        updateCount();
        if (!m_view->currentIndex().isValid() && m_picker->rowCount() > 0)
            m_view->setCurrentIndex(m_picker->index(0, 0));
    });
    connect(m_view, &QListView::doubleClicked, this, &SeriesPicker::choose);
    connect(m_picker, &QAbstractItemModel::rowsInserted, this, &SeriesPicker::updateCount);
    connect(m_picker, &QAbstractItemModel::rowsRemoved, this, &SeriesPicker::updateCount);
    connect(m_picker, &QAbstractItemModel::modelReset, this, &SeriesPicker::updateCount);
    connect(m_picker, &QAbstractItemModel::layoutChanged, this, &SeriesPicker::updateCount);
    // Enter would otherwise reach the dialog and press its default button.
    m_filter->installEventFilter(this);
    m_view->installEventFilter(this);

    auto *timer = new QTimer(this);
    timer->setInterval(1000);
    connect(timer, &QTimer::timeout, this, &SeriesPicker::refresh);
    timer->start();
    updateCount();
}

SeriesPicker::~SeriesPicker() = default;

void SeriesPicker::refresh()
{
    m_tree->refresh();
}

QString SeriesPicker::describe(const SeriesSelector &selector)
{
    QString text = selector.source + SeriesPickerModel::Separator + selector.metric;
    if (!selector.labels.isEmpty())
        text += SeriesPickerModel::Separator + SeriesTreeModel::labelsText(selector.labels);
    return text;
}

QList<SeriesSelector> SeriesPicker::selectedSelectors() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QList<SeriesSelector> selectors;
    for (const QModelIndex &row : std::as_const(rows))
        selectors.append(row.data(SeriesTreeModel::SelectorRole).value<SeriesSelector>());
    return selectors;
}

void SeriesPicker::choose()
{
    QList<SeriesSelector> selectors = selectedSelectors();
    if (selectors.isEmpty()) {
        QModelIndex row = m_view->currentIndex();
        if (!row.isValid() && m_picker->rowCount() > 0)
            row = m_picker->index(0, 0);
        if (!row.isValid())
            return;
        selectors.append(row.data(SeriesTreeModel::SelectorRole).value<SeriesSelector>());
    }
    Q_EMIT seriesChosen(selectors);
}

bool SeriesPicker::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent *>(event)->key();
    if (key == Qt::Key_Return || key == Qt::Key_Enter) {
        choose();
        return true;
    }
    // From the filter, the arrows walk the list so the hands stay on the keyboard.
    if (watched == m_filter && (key == Qt::Key_Down || key == Qt::Key_Up)) {
        const int rows = m_picker->rowCount();
        if (rows > 0) {
            const int current
                = m_view->currentIndex().isValid() ? m_view->currentIndex().row() : -1;
            const int next = std::clamp(current + (key == Qt::Key_Down ? 1 : -1), 0, rows - 1);
            m_view->setCurrentIndex(m_picker->index(next, 0));
        }
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void SeriesPicker::updateCount()
{
    const int rows = m_picker->rowCount();
    m_count->setText(rows == 1 ? tr("1 match") : tr("%1 matches").arg(rows));
}

} // namespace Headroom
