#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &panelDescriptor(PanelType type)
{
    return visitPanelType(type, []<PanelType Type>() -> const PanelDescriptor & {
        return panelDescriptorOf<Type>();
    });
}

} // namespace Headroom
