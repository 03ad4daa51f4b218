from django.db import models


class Invoice(models.Model):
    number = models.CharField(max_length=20, unique=True)
    owner_email = models.EmailField()
    total_cents = models.IntegerField()
    paid = models.BooleanField(default=False)
    pdf_name = models.CharField(max_length=200)
