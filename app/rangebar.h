// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The window's "Time range" toolbar: the range combo (RangeController's presets, a
// dashboard's own length, Custom…), Pause / Resume live, and the compare combo (nothing,
// an hour, a day or a week earlier, or a finding's before/after offset). It shows what
// the window says and tells what the user picks; RangeController keeps the range.
#pragma once

#include <QToolBar>

class QAction;
class QComboBox;

namespace Headroom {

class RangeBar : public QToolBar
{
    Q_OBJECT
public:
    explicit RangeBar(QWidget *parent = nullptr);

    // Shows rangeMs as the range chosen, added to the combo when it is no preset.
    void showRange(qint64 rangeMs);
    // The Pause action as following says (checked while paused), without a signal.
    void showFollowing(bool following);
    // A recording has no live end to follow.
    void setFollowingEnabled(bool enabled);
    // Shows a finding's before/after offset as the comparison: a preset when it is one,
    // else one entry of its own, replaced by the next.
    void showBeforeAfterOffset(qint64 offsetMs);
    QComboBox *compareCombo() const { return m_compareCombo; }

Q_SIGNALS:
    void rangeChosen(qint64 rangeMs); // a length from the combo
    void customRangeRequested(); // "Custom…"
    void followingChosen(bool follow); // Pause (false) or Resume live (true)
    void compareOffsetChosen(qint64 offsetMs); // 0: nothing

private:
    QComboBox *m_rangeCombo;
    QAction *m_followAction;
    QComboBox *m_compareCombo;
};

} // namespace Headroom
