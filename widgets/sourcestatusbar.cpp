#include "sourcestatusbar.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>

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
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->addStretch();
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
