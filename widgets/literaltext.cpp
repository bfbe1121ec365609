// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "literaltext.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Takes a view's tooltip events before its delegate (or a header before itself) does:
// filters installed last run first. Shows the item's or the section's tooltip literally.
class ItemToolTipFilter : public QObject
{
public:
    explicit ItemToolTipFilter(QAbstractItemView *view)
        : QObject(view)
        , m_view(view)
        , m_viewport(view->viewport())
    {
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // The type first: the viewport still has events while the view is destroyed.
        if (event->type() != QEvent::ToolTip || watched != m_viewport)
            return false;
        const auto *help = static_cast<QHelpEvent *>(event);
        QString text;
        QRect rect;
        if (const auto *header = qobject_cast<QHeaderView *>(m_view)) {
            const int section = header->logicalIndexAt(help->pos());
            if (section >= 0 && header->model())
                text = header->model()
                           ->headerData(section, header->orientation(), Qt::ToolTipRole)
                           .toString();
        } else {
            const QModelIndex index = m_view->indexAt(help->pos());
            text = index.data(Qt::ToolTipRole).toString();
            rect = m_view->visualRect(index);
        }
        if (text.isEmpty())
            return false; // Qt's own handling: hides the tip, or shows the view's
        showLiteralToolTip(help->globalPos(), text, m_view->viewport(), rect);
        return true;
    }

private:
    QAbstractItemView *m_view;
    QObject *m_viewport; // only compared, never called
};

} // namespace

QString literalHtml(const QString &text)
{
    return text.toHtmlEscaped();
}

QString literalChartText(const QString &text)
{
    const QString escaped = text.toHtmlEscaped();
    return escaped == text ? text : u"<span>"_s + escaped + u"</span>"_s;
}

QString literalAutoText(const QString &text)
{
    if (text.isEmpty())
        return {};
    // Starting with a tag Qt knows makes Qt::mightBeRichText() true whatever follows;
    // escaped, the text holds no tag of its own. pre-wrap keeps runs of spaces (SQL,
    // aligned columns) and still wraps a long line; <br> keeps its lines.
    QString escaped = text.toHtmlEscaped();
    escaped.replace(u"\r\n"_s, u"\n"_s);
    escaped.replace(u'\n', u"<br>"_s);
    return u"<span style=\"white-space: pre-wrap\">"_s + escaped + u"</span>"_s;
}

void setLiteralToolTip(QWidget *widget, const QString &text)
{
    widget->setToolTip(literalAutoText(text));
}

void showLiteralToolTip(const QPoint &globalPos, const QString &text, QWidget *widget,
                        const QRect &rect)
{
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, literalAutoText(text), widget, rect);
}

void showItemToolTipsLiterally(QAbstractItemView *view)
{
    view->viewport()->installEventFilter(new ItemToolTipFilter(view));
    // A model's headerData has tooltips too (a USE matrix row's resource).
    if (auto *table = qobject_cast<QTableView *>(view)) {
        showItemToolTipsLiterally(table->horizontalHeader());
        showItemToolTipsLiterally(table->verticalHeader());
    } else if (auto *tree = qobject_cast<QTreeView *>(view)) {
        showItemToolTipsLiterally(tree->header());
    }
}

QLabel *plainTextLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setText(text);
    return label;
}

} // namespace Headroom
