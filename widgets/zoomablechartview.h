// A QChartView that turns a horizontal drag into a time range (drag to zoom) and
// leaves the zoom decision to the owner, so every panel can follow the same range.
#pragma once

#include <QChartView>

class QRubberBand;

namespace Headroom {

class ZoomableChartView : public QChartView
{
    Q_OBJECT
public:
    explicit ZoomableChartView(QChart *chart, QWidget *parent = nullptr);

Q_SIGNALS:
    void rangeSelected(qint64 fromMs, qint64 toMs);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QRubberBand *m_band = nullptr;
    int m_originX = -1;
};

} // namespace Headroom
