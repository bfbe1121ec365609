// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sourcestatusbar.h"

#include "engine/cache/samplecache.h"
#include "literaltext.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
QString colorFor(SourceState state)
{
    switch (state) {
    case SourceState::Ok:
        return u"#2ca02c"_s;
    case SourceState::Stale:
        return u"#ff7f0e"_s;
    case SourceState::Error:
        return u"#d62728"_s;
    case SourceState::Starting:
    case SourceState::Stopped:
        break;
    }
    return u"#7f7f7f"_s;
}
} // namespace

SourceStatusBar::SourceStatusBar(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QHBoxLayout(this))
    , m_cacheLabel(new QLabel(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->addStretch();
    m_layout->addWidget(m_cacheLabel); // after the stretch: sources come before it
    m_cacheLabel->hide();
}

void SourceStatusBar::setCacheStatus(const CacheStatus &status)
{
    // Once writes work again the entry stays only when something was given up for it.
    if (!status.writeFailing && !status.lostSamples() && status.daysExpiredForSpace == 0) {
        m_cacheLabel->hide();
        m_cacheLabel->clear();
        return;
    }
    const QString what = status.writeFailing ? (status.diskFull ? u"disk full"_s : u"write error"_s)
                                             : u"writing again, data dropped"_s;
    m_cacheLabel->setText(u"<span style='color:%1'>&#9679;</span> cache: %2"_s.arg(
        colorFor(status.writeFailing ? SourceState::Error : SourceState::Stale), what));
    setLiteralToolTip(m_cacheLabel, status.summary()); // SQLite's words, file names
    m_cacheLabel->show();
}

void SourceStatusBar::followCache(const SampleCache *cache)
{
    m_cache = cache;
    if (!m_cacheTimer) {
        m_cacheTimer = new QTimer(this);
        m_cacheTimer->setInterval(1000);
        connect(m_cacheTimer, &QTimer::timeout, this, [this] {
            if (m_cache)
                setCacheStatus(m_cache->status());
        });
    }
    if (cache)
        m_cacheTimer->start();
    else
        m_cacheTimer->stop();
}

QString SourceStatusBar::cacheText() const
{
    return m_cacheLabel->isHidden() ? QString() : m_cacheLabel->text();
}

QString SourceStatusBar::cacheToolTip() const
{
    return m_cacheLabel->isHidden() ? QString() : m_cacheLabel->toolTip();
}

void SourceStatusBar::updateStatus(const SourceStatus &status)
{
    QLabel *&label = m_labels[status.sourceId];
    if (!label) {
        label = new QLabel(this);
        m_layout->insertWidget(m_layout->count() - 1, label);
    }
    QString text = u"<span style='color:%1'>&#9679;</span> %2: %3"_s.arg(
        colorFor(status.state), status.sourceId.toHtmlEscaped(), sourceStateName(status.state));
    if (status.state == SourceState::Ok)
        text += u" (%1 series, %2 ms)"_s.arg(status.seriesCount).arg(status.lastPollDurationMs);
    label->setText(text);
    QString tip = status.plugin + u" collector"_s;
    if (!status.message.isEmpty())
        tip += u"\n"_s + status.message;
    if (status.lastSuccessMs > 0)
        tip += u"\nlast sample: "_s
            + QDateTime::fromMSecsSinceEpoch(status.lastSuccessMs).toString(Qt::ISODate);
    setLiteralToolTip(label, tip); // a source's message quotes its target
}

void SourceStatusBar::clear()
{
    qDeleteAll(m_labels);
    m_labels.clear();
}

} // namespace Headroom
