// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers for the GUI tests that feed a target's text with markup in it to a view
// (a local red image to name: writeRedPng in imagetestutil.h): what a sink shows of a
// string, the tooltip on screen, and hovering an item of a view.
#pragma once

#include "imagetestutil.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCoreApplication>
#include <QHelpEvent>
#include <QLabel>
#include <QTextDocument>
#include <QToolTip>

namespace Headroom::Test {

// What a sink that always reads HTML (QtCharts, an HTML document) shows of html: its
// plain text, with U+FFFC where it would draw an image.
inline QString shownAsHtml(const QString &html)
{
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

// What a sink that guesses (QToolTip, QLabel in Qt::AutoText, QMessageBox) shows of text.
inline QString shownAsAutoText(const QString &text)
{
    return Qt::mightBeRichText(text) ? shownAsHtml(text) : text;
}

// The tooltip label on screen, or nullptr.
inline QLabel *visibleToolTip()
{
    if (!QToolTip::isVisible())
        return nullptr;
    const auto widgets = QApplication::topLevelWidgets();
    for (QWidget *w : widgets)
        if (w->objectName() == QLatin1String("qtooltip_label") && w->isVisible())
            return qobject_cast<QLabel *>(w);
    return nullptr;
}

// Asks the view for the tooltip of the item at index, as a hovering mouse does.
inline void hoverItem(QAbstractItemView *view, const QModelIndex &index)
{
    const QPoint pos = view->visualRect(index).center();
    QHelpEvent help(QEvent::ToolTip, pos, view->viewport()->mapToGlobal(pos));
    QCoreApplication::sendEvent(view->viewport(), &help);
}

} // namespace Headroom::Test
