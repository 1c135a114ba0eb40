import { useState } from 'react';
import { App as AntApp, Button, Form, Input, Select, Space } from 'antd';
import { isApiError, operatorApi, STAFF_ROLE_LABELS, STAFF_ROLES, staffRoleSchema, type StaffRole } from '@finishline/shared';

/** Grant or revoke a staff role by the account's email (the operator role itself stays with `pnpm admin`). */
export function StaffRolesSection({ refused, onChanged }: { refused: (error: unknown) => boolean; onChanged: () => void }) {
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ email: string; role: StaffRole }>();
  const [busy, setBusy] = useState(false);

  const change = async (grant: boolean) => {
    const values = await form.validateFields();
    const body = { email: values.email.trim(), role: values.role, grant };
    try {
      await staffRoleSchema.validate(body);
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
      return;
    }
    setBusy(true);
    try {
      const answer = await operatorApi.setStaffRole(body);
      message.success(`${body.email}: ${answer.message}`);
      onChanged();
    } catch (error) {
      if (!refused(error)) message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="roles-heading" style={{ marginBottom: 28 }}>
      <h2 id="roles-heading" style={{ fontSize: 20 }}>
        Staff roles
      </h2>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ role: 'organiser' }} style={{ maxWidth: 520 }}>
        <Form.Item
          label="Email of the account"
          name="email"
          rules={[
            { required: true, whitespace: true, message: 'Please enter the email of the account.' },
            { type: 'email', message: 'Please enter a valid email.' },
          ]}
        >
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item label="Role" name="role">
          <Select options={STAFF_ROLES.map((role) => ({ value: role, label: STAFF_ROLE_LABELS[role] }))} />
        </Form.Item>
        <Space wrap>
          <Button type="primary" loading={busy} onClick={() => change(true)}>
            Grant role
          </Button>
          <Button danger loading={busy} onClick={() => change(false)}>
            Revoke role
          </Button>
        </Space>
      </Form>
    </section>
  );
}
