// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A target's text shown as the text it is, wherever Qt might read it as markup.
//
// Label values, statement texts, application, host and engine names, panel titles of a
// dashboard file, finding summaries, status and error messages that quote an answer:
// all of it comes from outside, and an application_name "<img src=/home/me/key.png>"
// must show as those characters, never draw a file the user can read into a legend, a
// PNG export or a report. Qt reads markup in two ways; each has its function here:
// - QtCharts always reads HTML (its legend shows a series' name, its chart and axis
//   titles are QGraphicsTextItem::setHtml), as does an HTML document:
//   literalChartText(), literalHtml().
// - Tooltips (QToolTip, setToolTip, Qt::ToolTipRole of item views), QMessageBox and a
//   QLabel left in Qt::AutoText guess with Qt::mightBeRichText(): literalAutoText(),
//   setLiteralToolTip(), showLiteralToolTip(), showItemToolTipsLiterally(); a label
//   for such text is made with plainTextLabel().
// QPainter::drawText, the display text of item views, window titles and the status
// bar's messages never read markup.
#pragma once

#include <QRect>
#include <QString>

class QAbstractItemView;
class QLabel;
class QPoint;
class QWidget;

namespace Headroom {

// For an HTML document (the incident report): the text with & < > " escaped.
QString literalHtml(const QString &text);

// For QtCharts: a series' name (its legend entry), a chart's or an axis' title. Escaped,
// and wrapped in a <span> when that changed anything, so that the tooltip QtCharts
// gives a truncated name (the same string, through QToolTip's guess) reads it as markup
// too and shows "a < b" rather than "a &lt; b". A name without & < > " is unchanged.
QString literalChartText(const QString &text);

// For a sink that guesses (tooltips, QMessageBox, a QLabel in Qt::AutoText): rich text
// by construction, whose whole content is the escaped text, its line breaks and runs of
// spaces kept. Empty stays empty (an empty tooltip is no tooltip).
QString literalAutoText(const QString &text);

// widget->setToolTip(literalAutoText(text)).
void setLiteralToolTip(QWidget *widget, const QString &text);

// QToolTip::showText(literalAutoText(text)); hides the tooltip when text is empty.
// rect is in widget's coordinates (leaving it hides the tip).
void showLiteralToolTip(const QPoint &globalPos, const QString &text, QWidget *widget = nullptr,
                        const QRect &rect = {});

// The view's items' tooltips (Qt::ToolTipRole of its model, QTableWidgetItem::setToolTip)
// are shown literally, and so are its headers' (headerData's Qt::ToolTipRole) when it is
// a table or a tree: an event filter on its viewport takes the tooltip event from the
// delegate, which would hand the role's text to QToolTip's guess. The models keep plain
// text.
void showItemToolTipsLiterally(QAbstractItemView *view);

// A QLabel that shows its text as plain text (Qt::PlainText).
QLabel *plainTextLabel(const QString &text = {}, QWidget *parent = nullptr);

} // namespace Headroom
