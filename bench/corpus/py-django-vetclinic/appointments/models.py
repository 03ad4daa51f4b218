from django.db import models


class Owner(models.Model):
    name = models.CharField(max_length=200)
    email = models.EmailField()
    phone = models.CharField(max_length=40)
    is_staff_member = models.BooleanField(default=False)


class Appointment(models.Model):
    owner = models.ForeignKey(Owner, on_delete=models.CASCADE)
    pet_name = models.CharField(max_length=100)
    species = models.CharField(max_length=40)
    starts_at = models.DateTimeField()
    notes = models.TextField(blank=True)
    reminder_sent = models.BooleanField(default=False)
