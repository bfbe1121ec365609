// Collector status in the window: a coloured dot and the state per source, the
// reason in the tooltip. Dead sources are impossible to miss.
#pragma once

#include "sourcestatus.h"

#include <QHash>
#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace Headroom {

class SourceStatusBar : public QWidget
{
    Q_OBJECT
public:
    explicit SourceStatusBar(QWidget *parent = nullptr);
    void updateStatus(const Headroom::SourceStatus &status);
    void clear();

private:
    QHBoxLayout *m_layout;
    QHash<QString, QLabel *> m_labels;
};

} // namespace Headroom
