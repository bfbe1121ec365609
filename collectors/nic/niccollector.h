// The nic collector: per network interface throughput, utilization against the link
// speed, drops and errors from /sys/class/net, and TCP retransmits from /proc/net/snmp.
#pragma once

#include "collector/collector.h"
#include "collector/counterrate.h"
#include "collector/filesource.h"

#include <QHash>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace Headroom {

class PollBuilder;

struct NicOptions
{
    QStringList interfaces; // empty: every interface (but loopback unless included)
    QHash<QString, double> speedMbps; // used when the driver reports no speed
    std::optional<double> defaultSpeedMbps; // for any other interface without a speed
    bool includeLoopback = false;
};

class NicCollector : public Collector
{
public:
    using Clock = std::function<qint64()>; // ms since the epoch; fake in tests

    // Validates config.options ("host", "root", "interfaces", "speedMbps",
    // "defaultSpeedMbps", "includeLoopback"); nullptr and *error when invalid.
    static std::unique_ptr<NicCollector> create(const CollectorConfig &config, QString *error);
    static std::optional<NicOptions> parseOptions(const QJsonObject &options, QString *error);

    // A null clock means steadyWallClockMs.
    NicCollector(CollectorConfig config, NicOptions options, std::unique_ptr<FileSource> source,
                 Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

private:
    void collectInterface(PollBuilder &poll, const QString &name, bool explicitlyChosen);
    void collectTcp(PollBuilder &poll);

    CollectorConfig m_config;
    NicOptions m_options;
    std::unique_ptr<FileSource> m_source;
    Clock m_clock;
    CounterRate m_rates;
};

} // namespace Headroom
