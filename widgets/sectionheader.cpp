// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sectionheader.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QToolButton>

namespace Headroom {

using namespace Qt::StringLiterals;

SectionHeader::SectionHeader(const QString &title, bool collapsed, QWidget *parent)
    : QWidget(parent)
    , m_button(new QToolButton(this))
    , m_title(title)
    , m_collapsed(collapsed)
{
    m_button->setAutoRaise(true);
    m_button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    QFont bold = m_button->font();
    bold.setBold(true);
    m_button->setFont(bold);
    auto *rule = new QFrame(this);
    rule->setFrameShape(QFrame::HLine);
    rule->setFrameShadow(QFrame::Sunken);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_button);
    layout->addWidget(rule, 1);
    connect(m_button, &QToolButton::clicked, this, [this] {
        setCollapsed(!m_collapsed);
        Q_EMIT toggled(m_collapsed);
    });
    updateText();
}

void SectionHeader::setCollapsed(bool collapsed)
{
    m_collapsed = collapsed;
    updateText();
}

void SectionHeader::setHiddenCount(int panels)
{
    m_hiddenCount = panels;
    updateText();
}

QString SectionHeader::text() const
{
    return m_button->text().replace(u"&&"_s, u"&"_s);
}

void SectionHeader::updateText()
{
    m_button->setArrowType(m_collapsed ? Qt::RightArrow : Qt::DownArrow);
    QString text = m_title;
    text.replace(u'&', u"&&"_s); // a title is text, not a mnemonic
    if (m_collapsed)
        text += u"  "_s
            + (m_hiddenCount == 1 ? tr("(1 panel)") : tr("(%1 panels)").arg(m_hiddenCount));
    m_button->setText(text);
    m_button->setToolTip(m_collapsed ? tr("Show this section's panels")
                                     : tr("Fold this section's panels away"));
}

} // namespace Headroom
