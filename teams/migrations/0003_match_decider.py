"""A cup's level match: the side a lot or a blitz decider sends through."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("teams", "0002_match_confirmation")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="decider",
            field=models.CharField(
                blank=True,
                choices=[("home", "home team"), ("away", "away team")],
                default="",
                max_length=4,
                verbose_name="decider won by",
            ),
        ),
    ]
