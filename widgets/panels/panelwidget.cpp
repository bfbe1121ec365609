// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/panelwidget.h"

#include "literaltext.h"

#include <QLabel>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

PanelWidget::PanelWidget(const DashboardPanel &config, QWidget *parent)
    : QWidget(parent)
    , m_config(config)
{
    m_data.panelId = config.id;
}

void PanelWidget::setData(const PanelData &panelData)
{
    m_data = panelData;
    showData();
}

QLabel *PanelWidget::newTitleLabel()
{
    QLabel *title = plainTextLabel(m_config.title, this); // a dashboard file's text
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    return title;
}

QLabel *PanelWidget::newMessageLabel()
{
    QLabel *message = plainTextLabel({}, this); // an engine's words are untrusted text
    message->setObjectName(u"panelMessage"_s);
    message->setWordWrap(true);
    message->setStyleSheet(u"color: gray;"_s);
    message->setVisible(false);
    return message;
}

QLabel *PanelWidget::newEmptyLabel(const QString &text)
{
    QLabel *empty = plainTextLabel(text, this);
    empty->setStyleSheet(u"color: gray;"_s);
    empty->setAlignment(Qt::AlignCenter);
    return empty;
}

QVBoxLayout *PanelWidget::newPanelLayout()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    return layout;
}

void PanelWidget::showMessage(QLabel *label) const
{
    label->setText(m_data.message);
    setLiteralToolTip(label, m_data.warnings.join(u'\n'));
    label->setVisible(!m_data.message.isEmpty());
}

} // namespace Headroom
