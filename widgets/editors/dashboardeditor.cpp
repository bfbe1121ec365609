// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/dashboardeditor.h"

#include "document/dashboardedit.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QListWidget>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace Headroom {

using namespace Qt::StringLiterals;

// A small drawing of the grid: where each panel sits, the current one highlighted;
// clicking a panel selects it in the list.
class LayoutPreview : public QWidget
{
    Q_OBJECT
public:
    explicit LayoutPreview(QWidget *parent)
        : QWidget(parent)
    {
        setMinimumSize(240, 200);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    void setPanels(const QList<DashboardPanel> &panels, const QString &current)
    {
        m_panels = panels;
        m_current = current;
        update();
    }

Q_SIGNALS:
    void panelClicked(const QString &id);

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.fillRect(rect(), palette().base());
        const double cell = double(width() - 1) / DashboardGridColumns;
        const double row = std::min(cell, double(height() - 1) / std::max(rows(), 1));
        painter.setPen(palette().mid().color());
        for (int c = 0; c <= DashboardGridColumns; ++c)
            painter.drawLine(QPointF(c * cell, 0), QPointF(c * cell, rows() * row));
        for (const DashboardPanel &panel : std::as_const(m_panels)) {
            const QRectF box = rectOf(panel.layout, cell, row).adjusted(1.5, 1.5, -1.5, -1.5);
            const bool current = panel.id == m_current;
            painter.setPen(palette().text().color());
            painter.setBrush(current ? palette().highlight() : palette().button());
            painter.drawRect(box);
            painter.setPen(current ? palette().highlightedText().color()
                                   : palette().buttonText().color());
            painter.drawText(box.adjusted(3, 2, -3, -2),
                             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                             panel.title.isEmpty() ? panel.id : panel.title);
        }
    }

    void mousePressEvent(QMouseEvent *event) override
    {
        const double cell = double(width() - 1) / DashboardGridColumns;
        const double row = std::min(cell, double(height() - 1) / std::max(rows(), 1));
        for (const DashboardPanel &panel : std::as_const(m_panels)) {
            if (rectOf(panel.layout, cell, row).contains(event->position())) {
                Q_EMIT panelClicked(panel.id);
                return;
            }
        }
    }

private:
    int rows() const
    {
        int bottom = 0;
        for (const DashboardPanel &panel : m_panels)
            bottom = std::max(bottom, panel.layout.y + panel.layout.h);
        return bottom;
    }
    static QRectF rectOf(const PanelLayout &layout, double cell, double row)
    {
        return { layout.x * cell, layout.y * row, layout.w * cell, layout.h * row };
    }

    QList<DashboardPanel> m_panels;
    QString m_current;
};

DashboardEditor::DashboardEditor(const Dashboard &dashboard, const SeriesRegistry &registry,
                                 QWidget *parent)
    : QDialog(parent)
    , m_dashboard(dashboard)
    , m_registry(registry)
    , m_list(new QListWidget(this))
    , m_x(new QSpinBox(this))
    , m_y(new QSpinBox(this))
    , m_w(new QSpinBox(this))
    , m_h(new QSpinBox(this))
    , m_edit(new QPushButton(tr("&Edit…"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_up(new QPushButton(tr("&Up"), this))
    , m_down(new QPushButton(tr("&Down"), this))
    , m_preview(new LayoutPreview(this))
{
    setWindowTitle(tr("Edit Panels — %1").arg(dashboard.title));
    m_list->setObjectName(u"panels"_s);
    m_x->setObjectName(u"x"_s);
    m_y->setObjectName(u"y"_s);
    m_w->setObjectName(u"w"_s);
    m_h->setObjectName(u"h"_s);
    m_edit->setObjectName(u"editPanel"_s);
    m_remove->setObjectName(u"removePanel"_s);
    m_up->setObjectName(u"panelUp"_s);
    m_down->setObjectName(u"panelDown"_s);
    m_preview->setObjectName(u"layoutPreview"_s);

    // Ranges are the grid's; dashboardedit.h clamps what they still allow (x + w).
    m_x->setRange(0, DashboardGridColumns - 1);
    m_y->setRange(0, 999);
    m_w->setRange(1, DashboardGridColumns);
    m_h->setRange(1, 99);
    m_x->setToolTip(
        tr("Column of the left edge (the grid has %1 columns)").arg(DashboardGridColumns));
    m_y->setToolTip(tr("Row of the top edge; panels in the way move down"));
    for (QSpinBox *box : { m_x, m_y, m_w, m_h }) {
        box->setKeyboardTracking(false); // apply "10", not "1" then "10"
        box->installEventFilter(this); // Enter applies the value, it does not close
        connect(box, &QSpinBox::valueChanged, this, &DashboardEditor::layoutEdited);
    }

    auto *add = new QPushButton(tr("&Add…"), this);
    add->setObjectName(u"addPanel"_s);
    auto *buttons = new QVBoxLayout;
    for (QPushButton *button : { add, m_edit, m_remove, m_up, m_down }) {
        button->setAutoDefault(false);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);

    auto *geometry = new QFormLayout;
    geometry->addRow(tr("Column (x):"), m_x);
    geometry->addRow(tr("Row (y):"), m_y);
    geometry->addRow(tr("Width (w):"), m_w);
    geometry->addRow(tr("Height (h):"), m_h);
    auto *side = new QVBoxLayout;
    side->addLayout(geometry);
    side->addWidget(m_preview, 1);

    auto *columns = new QHBoxLayout;
    columns->addWidget(m_list, 2);
    columns->addLayout(buttons);
    columns->addLayout(side, 2);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(box);

    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(add, &QPushButton::clicked, this, &DashboardEditor::addPanel);
    connect(m_edit, &QPushButton::clicked, this, &DashboardEditor::editCurrentPanel);
    connect(m_remove, &QPushButton::clicked, this, &DashboardEditor::removeCurrentPanel);
    connect(m_up, &QPushButton::clicked, this, [this] { moveCurrentPanel(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { moveCurrentPanel(+1); });
    connect(m_list, &QListWidget::currentRowChanged, this, &DashboardEditor::showCurrent);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &DashboardEditor::editCurrentPanel);
    connect(m_preview, &LayoutPreview::panelClicked, this, &DashboardEditor::selectPanel);

    rebuild(m_dashboard.panels.isEmpty() ? QString() : m_dashboard.panels.first().id);
    resize(820, 480);
}

DashboardEditor::~DashboardEditor() = default;

bool DashboardEditor::eventFilter(QObject *watched, QEvent *event)
{
    auto *box = qobject_cast<QSpinBox *>(watched);
    if (box && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            box->interpretText(); // emits valueChanged when the text changed the value
            box->selectAll();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

QString DashboardEditor::currentPanelId() const
{
    const int row = m_list->currentRow();
    return row >= 0 && row < m_dashboard.panels.size() ? m_dashboard.panels[row].id : QString();
}

void DashboardEditor::selectPanel(const QString &id)
{
    for (int row = 0; row < m_dashboard.panels.size(); ++row) {
        if (m_dashboard.panels[row].id == id)
            m_list->setCurrentRow(row);
    }
}

void DashboardEditor::rebuild(const QString &selectId)
{
    m_updating = true;
    m_list->clear();
    int selectRow = -1;
    for (const DashboardPanel &panel : std::as_const(m_dashboard.panels)) {
        const PanelLayout &l = panel.layout;
        const QString text = u"%1  (%2, %3)   x %4, y %5, %6×%7"_s.arg(
            panel.title.isEmpty() ? tr("untitled") : panel.title, panel.id,
            panelTypeName(panel.type), QString::number(l.x), QString::number(l.y),
            QString::number(l.w), QString::number(l.h));
        new QListWidgetItem(text, m_list);
        if (panel.id == selectId)
            selectRow = m_list->count() - 1;
    }
    m_updating = false;
    m_list->setCurrentRow(selectRow);
    showCurrent();
}

void DashboardEditor::showCurrent()
{
    if (m_updating)
        return;
    const int row = m_list->currentRow();
    const bool has = row >= 0 && row < m_dashboard.panels.size();
    m_updating = true;
    for (QSpinBox *box : { m_x, m_y, m_w, m_h })
        box->setEnabled(has);
    m_edit->setEnabled(has);
    m_remove->setEnabled(has);
    m_up->setEnabled(has && row > 0);
    m_down->setEnabled(has && row + 1 < m_dashboard.panels.size());
    if (has) {
        const PanelLayout &l = m_dashboard.panels[row].layout;
        m_x->setValue(l.x);
        m_y->setValue(l.y);
        m_w->setValue(l.w);
        m_h->setValue(l.h);
    }
    m_updating = false;
    m_preview->setPanels(m_dashboard.panels, currentPanelId());
}

void DashboardEditor::layoutEdited()
{
    if (m_updating)
        return;
    const QString id = currentPanelId();
    if (id.isEmpty())
        return;
    const PanelLayout before = m_dashboard.panel(id)->layout;
    // Resize first: a move to the right may need the narrower width just typed.
    if (m_w->value() != before.w || m_h->value() != before.h)
        resizePanel(m_dashboard, id, std::min(m_w->value(), DashboardGridColumns - before.x),
                    m_h->value());
    const PanelLayout sized = m_dashboard.panel(id)->layout;
    if (m_x->value() != sized.x || m_y->value() != sized.y)
        movePanel(m_dashboard, id, m_x->value(), m_y->value());
    rebuild(id); // other panels may have moved down; values may have been clamped
}

void DashboardEditor::addPanel()
{
    DashboardPanel panel;
    panel.type = AllPanelTypes.front();
    PanelEditor editor(panel, m_registry, this);
    editor.setDashboard(m_dashboard);
    editor.setWindowTitle(tr("New Panel"));
    if (editor.exec() != QDialog::Accepted)
        return;
    rebuild(Headroom::addPanel(m_dashboard, editor.panel()));
}

void DashboardEditor::editCurrentPanel()
{
    const QString id = currentPanelId();
    if (id.isEmpty())
        return;
    PanelEditor editor(*m_dashboard.panel(id), m_registry, this);
    editor.setDashboard(m_dashboard);
    if (editor.exec() != QDialog::Accepted)
        return;
    replacePanel(m_dashboard, id, editor.panel());
    rebuild(id);
}

void DashboardEditor::removeCurrentPanel()
{
    const int row = m_list->currentRow();
    const QString id = currentPanelId();
    if (id.isEmpty())
        return;
    Headroom::removePanel(m_dashboard, id);
    const int next = std::min(row, int(m_dashboard.panels.size()) - 1);
    rebuild(next >= 0 ? m_dashboard.panels[next].id : QString());
}

void DashboardEditor::moveCurrentPanel(int delta)
{
    const QString id = currentPanelId();
    if (movePanelInList(m_dashboard, id, delta))
        rebuild(id);
}

std::optional<Dashboard> editDashboard(QWidget *parent, const Dashboard &dashboard,
                                       const SeriesRegistry &registry)
{
    DashboardEditor editor(dashboard, registry, parent);
    if (editor.exec() != QDialog::Accepted || editor.dashboard() == dashboard)
        return std::nullopt;
    return editor.dashboard();
}

} // namespace Headroom

#include "dashboardeditor.moc"
