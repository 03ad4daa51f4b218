from django.contrib import admin
from django.urls import path

from appointments import views as appointments
from billing import views as billing
from records import views as records

urlpatterns = [
    path("admin/", admin.site.urls),
    path("appointments/", appointments.calendar),
    path("appointments/search/", appointments.search),
    path("appointments/<int:pk>/remind/", appointments.remind),
    path("appointments/book/", appointments.book),
    path("billing/invoices/", billing.invoices),
    path("billing/invoices/<int:pk>/pdf/", billing.invoice_pdf),
    path("billing/export/", billing.export),
    path("billing/pay/", billing.pay),
    path("records/<int:patient_id>/files/", records.files),
    path("records/<int:patient_id>/upload/", records.upload),
    path("records/lab-import/", records.lab_import),
    path("records/xray/", records.xray),
]
