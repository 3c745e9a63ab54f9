"""The old logs are gone: their history is in the audit log (0011)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_one_log")]

    operations = [
        migrations.DeleteModel(name="ResultChange"),
        migrations.DeleteModel(name="TDAction"),
    ]
