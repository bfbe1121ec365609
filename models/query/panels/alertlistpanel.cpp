#include "query/panels/alertlistpanel.h"

namespace Headroom {

static_assert(std::is_same_v<PanelPayloadOf<PanelType::Alerts>, AlertListPayload>);

const PanelDescriptor &alertListPanel()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Alerts,
        .showsAlerts = true, // they are its view
        .supportsCompare = false,
        .readsSeries = false,
        .query =
            [](const PanelQueryRequest &) {
                PanelData data;
                data.payload = AlertListPayload {};
                return data;
            },
        .csvRows = nullptr,
    };
    return descriptor;
}

} // namespace Headroom
