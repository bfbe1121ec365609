#include "sourcestatusbar.h"

#include "engine/cache/samplecache.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>

namespace Headroom {

namespace {
QString colorFor(SourceState state)
{
    switch (state) {
    case SourceState::Ok:
        return QStringLiteral("#2ca02c");
    case SourceState::Stale:
        return QStringLiteral("#ff7f0e");
    case SourceState::Error:
        return QStringLiteral("#d62728");
    case SourceState::Starting:
    case SourceState::Stopped:
        break;
    }
    return QStringLiteral("#7f7f7f");
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
    const QString what = status.writeFailing
        ? (status.diskFull ? QStringLiteral("disk full") : QStringLiteral("write error"))
        : QStringLiteral("writing again, data dropped");
    m_cacheLabel->setText(
        QStringLiteral("<span style='color:%1'>&#9679;</span> cache: %2")
            .arg(colorFor(status.writeFailing ? SourceState::Error : SourceState::Stale), what));
    m_cacheLabel->setToolTip(status.summary());
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
    QString text = QStringLiteral("<span style='color:%1'>&#9679;</span> %2: %3")
                       .arg(colorFor(status.state), status.sourceId.toHtmlEscaped(),
                            sourceStateName(status.state));
    if (status.state == SourceState::Ok)
        text += QStringLiteral(" (%1 series, %2 ms)")
                    .arg(status.seriesCount)
                    .arg(status.lastPollDurationMs);
    label->setText(text);
    QString tip = status.plugin + QStringLiteral(" collector");
    if (!status.message.isEmpty())
        tip += QStringLiteral("\n") + status.message;
    if (status.lastSuccessMs > 0)
        tip += QStringLiteral("\nlast sample: ")
            + QDateTime::fromMSecsSinceEpoch(status.lastSuccessMs).toString(Qt::ISODate);
    label->setToolTip(tip);
}

void SourceStatusBar::clear()
{
    qDeleteAll(m_labels);
    m_labels.clear();
}

} // namespace Headroom
