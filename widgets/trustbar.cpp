// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "trustbar.h"

#include "literaltext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// Enough to judge at a glance; the tooltip has every line.
constexpr int ShownLines = 6;
} // namespace

TrustBar::TrustBar(QWidget *parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
{
    setObjectName(u"trustBar"_s);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette warning = palette();
    warning.setColor(QPalette::Window, QColor(0xff, 0xf3, 0xcd));
    warning.setColor(QPalette::WindowText, QColor(0x66, 0x4d, 0x03));
    setPalette(warning);

    m_text->setTextFormat(Qt::PlainText); // file content is never markup
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *trust = new QPushButton(tr("Trust and connect"), this);
    trust->setObjectName(u"trustButton"_s);
    auto *dismiss = new QPushButton(tr("Stay disconnected"), this);
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(trust);
    layout->addWidget(dismiss);
    connect(trust, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT trustRequested();
    });
    connect(dismiss, &QPushButton::clicked, this, &QWidget::hide);
    hide();
}

void TrustBar::showRequest(const QString &file, const QStringList &lines)
{
    QStringList shown = lines.mid(0, ShownLines);
    if (lines.size() > ShownLines)
        shown << tr("… and %1 more (hover to see all)").arg(lines.size() - ShownLines);
    m_text->setText(tr("%1 is a dashboard you have not trusted yet. Its sources that connect "
                       "elsewhere or run SQL are not started:")
                        .arg(file)
                    + QLatin1Char('\n') + shown.join(QLatin1Char('\n')));
    setLiteralToolTip(m_text, lines.join(QLatin1Char('\n'))); // the file's text
    show();
}

} // namespace Headroom
