// The host collector: the USE checklist for CPU, memory and disks of one Linux host,
// read from /proc and /sys through a FileSource (local today, SSH later).
#pragma once

#include "collector/collector.h"
#include "collector/counterrate.h"
#include "collector/filesource.h"

#include <functional>
#include <memory>

namespace Headroom {

struct DiskStat;
class PollBuilder;
struct ProcStat;

class HostCollector : public Collector
{
public:
    // Milliseconds since the epoch; tests substitute a fake clock so rates are exact.
    using Clock = std::function<qint64()>;

    // Reads config.options ("host", "root"); nullptr and *error when they are invalid.
    static std::unique_ptr<HostCollector> create(const CollectorConfig &config, QString *error);

    // Any FileSource (tests swap fixture trees between polls); a null clock means
    // steadyWallClockMs.
    HostCollector(CollectorConfig config, std::unique_ptr<FileSource> source, Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

    // The files one poll reads for the given block devices (from /sys/block).
    static QStringList filesToRead(const QStringList &blockDevices);

private:
    void collectCpu(PollBuilder &poll, const ProcStat &stat);
    void collectLoad(PollBuilder &poll, int cpuCount);
    void collectPressure(PollBuilder &poll);
    void collectMemory(PollBuilder &poll);
    void collectVmStat(PollBuilder &poll);
    void collectDisks(PollBuilder &poll, const QStringList &devices);

    CollectorConfig m_config;
    std::unique_ptr<FileSource> m_source;
    Clock m_clock;
    CounterRate m_rates;
};

} // namespace Headroom
