// Edits one dashboard panel: type, title, unit, Y scale, thresholds and its series
// (picked from the known series with SeriesPicker). Checks as the user types: OK stays
// disabled, with the reason shown, while the panel has no series or its thresholds
// contradict each other.
#pragma once

#include "document/dashboard.h"

#include <QDialog>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace Headroom {

class SeriesPicker;
class SeriesRegistry;

class PanelEditor : public QDialog
{
    Q_OBJECT
public:
    // The registry must outlive the dialog.
    PanelEditor(const DashboardPanel &panel, const SeriesRegistry &registry,
                QWidget *parent = nullptr);

    // The edited panel: id, layout, options and percentiles as given, the rest as edited.
    // Meaningful when problem() is empty.
    DashboardPanel panel() const;
    // Why OK is disabled; empty when the panel can be used.
    QString problem() const { return m_problem; }

    // Appends the selectors not already on the panel.
    void addSeries(const QList<SeriesSelector> &selectors);
    QList<SeriesSelector> series() const { return m_series; }
    SeriesPicker *picker() const { return m_picker; }

private:
    PanelType currentType() const;
    void removeSelectedSeries();
    void validate();

    DashboardPanel m_original;
    QList<SeriesSelector> m_series;
    QString m_problem;

    QComboBox *m_type;
    QLineEdit *m_title;
    QLineEdit *m_unit;
    QLineEdit *m_legend;
    QComboBox *m_yScale;
    QLineEdit *m_warning;
    QLineEdit *m_critical;
    QCheckBox *m_higherIsWorse;
    QListWidget *m_seriesList;
    QPushButton *m_remove;
    SeriesPicker *m_picker;
    QLabel *m_message;
    QDialogButtonBox *m_buttons;
};

// Runs a PanelEditor. Returns the edited panel, or nullopt when the user cancelled or
// changed nothing (so the caller marks the dashboard modified only on a value).
std::optional<DashboardPanel> editPanel(QWidget *parent, const DashboardPanel &panel,
                                        const SeriesRegistry &registry);

} // namespace Headroom
