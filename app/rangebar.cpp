// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "rangebar.h"

#include "core/duration.h"
#include "rangecontroller.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>

namespace Headroom {

using namespace Qt::StringLiterals;

RangeBar::RangeBar(QWidget *parent)
    : QToolBar(tr("Time range"), parent)
{
    setObjectName(u"timeRangeBar"_s);
    addWidget(new QLabel(tr("Range: "), this));
    m_rangeCombo = new QComboBox(this);
    for (const RangePreset &preset : RangeController::presets())
        m_rangeCombo->addItem(preset.name, preset.ms);
    m_rangeCombo->addItem(tr("Custom…"), qint64(0));
    connect(m_rangeCombo, &QComboBox::activated, this, [this](int index) {
        const qint64 ms = m_rangeCombo->itemData(index).toLongLong();
        if (ms == 0)
            Q_EMIT customRangeRequested();
        else
            Q_EMIT rangeChosen(ms);
    });
    addWidget(m_rangeCombo);
    m_followAction = addAction(tr("Pause"));
    m_followAction->setCheckable(true);
    m_followAction->setToolTip(tr("Pause or resume following live data"));
    connect(m_followAction, &QAction::toggled, this,
            [this](bool paused) { Q_EMIT followingChosen(!paused); });

    // Compare mode: overlay an earlier range on every time chart (before vs after).
    addSeparator();
    addWidget(new QLabel(tr("Compare with: "), this));
    m_compareCombo = new QComboBox(this);
    m_compareCombo->setObjectName(u"compareCombo"_s);
    m_compareCombo->addItem(tr("nothing"), qint64(0));
    m_compareCombo->addItem(tr("1 hour earlier"), 3600 * 1000LL);
    m_compareCombo->addItem(tr("1 day earlier"), 24 * 3600 * 1000LL);
    m_compareCombo->addItem(tr("1 week earlier"), 7 * 24 * 3600 * 1000LL);
    m_compareCombo->setToolTip(
        tr("Overlay the same panels over an earlier range, dashed, shifted onto this one"));
    connect(m_compareCombo, &QComboBox::activated, this, [this](int index) {
        Q_EMIT compareOffsetChosen(m_compareCombo->itemData(index).toLongLong());
    });
    addWidget(m_compareCombo);
}

void RangeBar::showRange(qint64 rangeMs)
{
    int index = m_rangeCombo->findData(rangeMs);
    if (index < 0) { // a dashboard range that is not a preset: show it as such
        m_rangeCombo->insertItem(m_rangeCombo->count() - 1, formatDuration(rangeMs), rangeMs);
        index = m_rangeCombo->findData(rangeMs);
    }
    m_rangeCombo->setCurrentIndex(index);
}

void RangeBar::showFollowing(bool following)
{
    const QSignalBlocker blocker(m_followAction);
    m_followAction->setChecked(!following);
    m_followAction->setText(following ? tr("Pause") : tr("Resume live"));
}

void RangeBar::setFollowingEnabled(bool enabled)
{
    m_followAction->setEnabled(enabled);
}

void RangeBar::showBeforeAfterOffset(qint64 offsetMs)
{
    // The combo shows the offset: a preset when it is one, else one custom entry
    // (replaced by the next "Compare before/after").
    int index = m_compareCombo->findData(offsetMs);
    if (index < 0) {
        const int custom = m_compareCombo->findData(u"beforeAfter"_s, Qt::UserRole + 1);
        const QString text = tr("%1 earlier (before the onset)").arg(formatDuration(offsetMs));
        if (custom >= 0) {
            m_compareCombo->setItemText(custom, text);
            m_compareCombo->setItemData(custom, offsetMs);
            index = custom;
        } else {
            m_compareCombo->addItem(text, offsetMs);
            index = m_compareCombo->count() - 1;
            m_compareCombo->setItemData(index, u"beforeAfter"_s, Qt::UserRole + 1);
        }
    }
    m_compareCombo->setCurrentIndex(index);
}

} // namespace Headroom
