// Which time range the dashboard shows: the last rangeMs up to now while following live
// data, or a fixed [from, to] once the user zooms, pauses or picks a custom range.
// GUI-free, and told the time, so that the rules MainWindow applies can be tested.
#pragma once

#include <QList>
#include <QString>
#include <utility>

namespace Headroom {

// A choice of the range combo box: its label and length.
struct RangePreset
{
    QString name;
    qint64 ms = 0;
};

class RangeController
{
public:
    static constexpr qint64 DefaultRangeMs = 15 * 60 * 1000;

    // The range combo's presets (5m to 24h), shortest first.
    static const QList<RangePreset> &presets();

    // [from, to] to query at nowMs.
    std::pair<qint64, qint64> range(qint64 nowMs) const;
    bool following() const { return m_following; }
    // The range length: what a following range covers and what a dashboard saves.
    qint64 rangeMs() const { return m_rangeMs; }

    // A new range length. While paused the fixed range becomes the last rangeMs up to
    // nowMs; while following only the length changes.
    void setRangeMs(qint64 rangeMs, qint64 nowMs);
    // Show [fromMs, toMs] (a drag on a chart, a custom range) and stop following; an
    // empty [fromMs, toMs] pauses on the range shown at nowMs instead.
    void zoom(qint64 fromMs, qint64 toMs, qint64 nowMs);
    // Pausing freezes the range shown at nowMs unless a zoom already fixed one;
    // resuming forgets the fixed range.
    void setFollowing(bool follow, qint64 nowMs);

private:
    bool m_following = true;
    qint64 m_rangeMs = DefaultRangeMs;
    qint64 m_fixedFrom = 0, m_fixedTo = 0; // when not following
};

} // namespace Headroom
